import { STORAGE_KEYS } from "@parley/contract/constants";
import { useEffect, useState } from "react";
import { RouterProvider } from "react-router";
import { AuthProvider } from "../features/auth/auth-provider.tsx";
import { setLanguage } from "../i18n/index.ts";
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
function Session() {
  return (
    <AuthProvider>
      <RouterProvider router={router} />
    </AuthProvider>
  );
}

export function App() {
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
        <Session key={generation} />
      </ThemeRoot>
    </PreferencesProvider>
  );
}
