import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { loadPreferences, type Preferences, savePreferences } from "./preferences.ts";

interface PreferencesValue {
  preferences: Preferences;
  /** Spec §4 "interface preference changes": every change goes through this one setter. */
  update(patch: Partial<Preferences>): void;
}

const PreferencesContext = createContext<PreferencesValue | null>(null);

export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [preferences, setPreferences] = useState(loadPreferences);

  const update = useCallback((patch: Partial<Preferences>) => {
    setPreferences((current) => {
      const next = { ...current, ...patch };
      savePreferences(next);
      return next;
    });
  }, []);

  // Right-to-left sets the document direction; the language sets its lang attribute.
  useEffect(() => {
    document.documentElement.dir = preferences.direction;
    document.documentElement.lang = preferences.language;
  }, [preferences.direction, preferences.language]);

  const value = useMemo(() => ({ preferences, update }), [preferences, update]);
  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}

export function usePreferences() {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error("usePreferences must be used within a PreferencesProvider");
  return value;
}
