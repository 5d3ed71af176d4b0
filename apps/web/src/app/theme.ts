import { createTheme } from "@mui/material/styles";

/** Spec §9: primary colour green, border radius 5. */
export function buildTheme(mode: "light" | "dark") {
  return createTheme({
    palette: { mode, primary: { main: "#13a36e", contrastText: "#ffffff" } },
    shape: { borderRadius: 5 },
    typography: { fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
    transitions: { duration: { enteringScreen: 225, leavingScreen: 195 } },
  });
}
