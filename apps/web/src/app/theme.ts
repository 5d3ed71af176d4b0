import { createTheme, lighten } from "@mui/material/styles";
import { type Preferences, THEME_COLOURS } from "./customizer/preferences.ts";

/** MUI theme from the interface preferences: mode, direction, colour, radius, card shadow. */
export function buildTheme(preferences: Preferences) {
  return createTheme({
    direction: preferences.direction,
    // On dark paper the same hue is lightened and carries dark text, keeping the contrast.
    palette: {
      mode: preferences.mode,
      primary:
        preferences.mode === "dark"
          ? { main: lighten(THEME_COLOURS[preferences.themeName], 0.45), contrastText: "#0b0f0d" }
          : { main: THEME_COLOURS[preferences.themeName], contrastText: "#ffffff" },
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
