import { STORAGE_KEYS } from "@parley/contract/constants";
import { useEffect, useState } from "react";
import { RouterProvider } from "react-router";
import { AuthProvider } from "../features/auth/auth-provider.tsx";
import { setLanguage } from "../i18n/index.ts";
import type { AuthState } from "../lib/auth-context.ts";
import { PreferencesProvider, usePreferences } from "./customizer/preferences-context.tsx";
import { router } from "./router.tsx";
import { ThemeRoot } from "./theme-root.tsx";

function LanguageSync() {
  const { preferences } = usePreferences();
  useEffect(() => {
    void setLanguage(preferences.language);
  }, [preferences.language]);
  return null;
}

/** Everything below is rebuilt from scratch when another tab changes the stored access token. */
function Session({ initial }: { initial?: AuthState }) {
  return (
    <AuthProvider initial={initial}>
      <RouterProvider router={router} />
    </AuthProvider>
  );
}

/**
 * The app. `initialSession` is a session already restored before the first render (boot.tsx, for
 * the signed-in frame; the build's pre-render, for that frame's own markup); it only serves the
 * first session, not one rebuilt after another tab signs in or out.
 */
export function App({ initialSession }: { initialSession?: AuthState }) {
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.accessToken || event.key === null) setGeneration((g) => g + 1);
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);
  return (
    <PreferencesProvider>
      <LanguageSync />
      <ThemeRoot>
        <Session key={generation} initial={generation === 0 ? initialSession : undefined} />
      </ThemeRoot>
    </PreferencesProvider>
  );
}
