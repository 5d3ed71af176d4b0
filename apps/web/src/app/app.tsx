import { styled } from "@mui/material/styles";
import { STORAGE_KEYS } from "@parley/contract";
import { MaterialDesignContent, SnackbarProvider } from "notistack";
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

// notistack's default success green is too light for white text (3.3:1); these meet WCAG AA.
const Notice = styled(MaterialDesignContent)(() => ({
  "&.notistack-MuiContent-success": { backgroundColor: "#1b5e20" },
  "&.notistack-MuiContent-error": { backgroundColor: "#b71c1c" },
}));

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
        <SnackbarProvider
          maxSnack={3}
          anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
          Components={{ success: Notice, error: Notice }}
        >
          <Session key={generation} />
        </SnackbarProvider>
      </ThemeRoot>
    </PreferencesProvider>
  );
}
