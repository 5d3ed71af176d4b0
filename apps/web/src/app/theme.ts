import { createTheme, lighten } from "@mui/material/styles";
import { type Preferences, THEME_COLOURS } from "./customizer/preferences.ts";

/** MUI theme from the interface preferences: mode, direction, colour, radius, card shadow. */
export function buildTheme(preferences: Preferences) {
  return createTheme({
    direction: preferences.direction,
    palette: {
      mode: preferences.mode,
      primary: { main: THEME_COLOURS[preferences.themeName], contrastText: "#ffffff" },
    },
    shape: { borderRadius: preferences.borderRadius },
    typography: { fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
    components: {
      MuiCard: {
        defaultProps: {
          elevation: preferences.cardShadow ? 2 : 0,
          variant: preferences.cardShadow ? "elevation" : "outlined",
        },
      },
      MuiButtonBase: { defaultProps: { TouchRippleProps: { timeout: 550 } } as object },
    },
  });
}
