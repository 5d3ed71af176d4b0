import createCache from "@emotion/cache";
import { CacheProvider } from "@emotion/react";
import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import { type ReactNode, useMemo } from "react";
import { prefixer } from "stylis";
import rtlPlugin from "stylis-plugin-rtl";
import { usePreferences } from "./customizer/preferences-context.tsx";
import { buildTheme } from "./theme.ts";

const ltrCache = createCache({ key: "mui" });
const rtlCache = createCache({ key: "muirtl", stylisPlugins: [prefixer, rtlPlugin] });

/** Theme and style cache follow the preferences; right-to-left swaps in the RTL emotion cache. */
export function ThemeRoot({ children }: { children: ReactNode }) {
  const { preferences } = usePreferences();
  const theme = useMemo(() => buildTheme(preferences), [preferences]);
  return (
    <CacheProvider value={preferences.direction === "rtl" ? rtlCache : ltrCache}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </CacheProvider>
  );
}
