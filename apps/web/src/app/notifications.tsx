import { styled } from "@mui/material/styles";
import { MaterialDesignContent, SnackbarProvider } from "notistack";
import type { ReactNode } from "react";

// notistack's default success green is too light for white text (3.3:1); these meet WCAG AA.
const Notice = styled(MaterialDesignContent)(() => ({
  "&.notistack-MuiContent-success": { backgroundColor: "#1b5e20" },
  "&.notistack-MuiContent-error": { backgroundColor: "#b71c1c" },
}));

/**
 * Success and error notices (spec §8) for the signed-in frame. The sign-in pages show their
 * messages inline, so notistack stays out of their bundle.
 */
export function Notifications({ children }: { children: ReactNode }) {
  return (
    <SnackbarProvider
      maxSnack={3}
      anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
      Components={{ success: Notice, error: Notice }}
    >
      {children}
    </SnackbarProvider>
  );
}
