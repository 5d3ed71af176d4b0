import type { EmotionCache } from "@emotion/cache";
import { CacheProvider } from "@emotion/react";
import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { usePreferences } from "./customizer/preferences-context.tsx";
import { loadedRtlCache, loadRtlCache, ltrCache } from "./style-cache.ts";
import { buildTheme } from "./theme.ts";

/** Theme and style cache follow the preferences; right-to-left swaps in the RTL emotion cache. */
export function ThemeRoot({ children }: { children: ReactNode }) {
  const { preferences } = usePreferences();
  const theme = useMemo(() => buildTheme(preferences), [preferences]);
  const rtl = preferences.direction === "rtl";
  const [cache, setCache] = useState<EmotionCache | undefined>(rtl ? loadedRtlCache() : ltrCache);

  useEffect(() => {
    if (!rtl) {
      setCache(ltrCache);
      return;
    }
    let current = true;
    void loadRtlCache().then((loaded) => current && setCache(loaded));
    return () => {
      current = false;
    };
  }, [rtl]);

  // A page opened right to left paints nothing until its styles are ready, so it never flashes
  // left to right; a switch at run time keeps the page up while the plugin loads.
  if (!cache) return null;
  return (
    <CacheProvider value={cache}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </CacheProvider>
  );
}
