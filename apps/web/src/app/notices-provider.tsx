import { styled } from "@mui/material/styles";
import { enqueueSnackbar, MaterialDesignContent, SnackbarProvider } from "notistack";
import { useEffect } from "react";
import { connectNotices } from "../lib/snackbar.ts";

// notistack's default success green is too light for white text (3.3:1); these meet WCAG AA.
const Notice = styled(MaterialDesignContent)(() => ({
  "&.notistack-MuiContent-success": { backgroundColor: "#1b5e20" },
  "&.notistack-MuiContent-error": { backgroundColor: "#b71c1c" },
}));

/** notistack's provider, loaded with the first notice (lib/snackbar.ts); shows what waited. */
export default function NoticesProvider() {
  useEffect(() => {
    // notistack sets its enqueueSnackbar when the provider is built: read it when a notice is shown.
    connectNotices((message, options) => enqueueSnackbar(message, options));
    return () => connectNotices(null);
  }, []);
  return (
    <SnackbarProvider
      maxSnack={3}
      anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
      Components={{ success: Notice, error: Notice }}
    />
  );
}
