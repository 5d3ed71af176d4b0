import Autorenew from "@mui/icons-material/Autorenew";
import ContentCopy from "@mui/icons-material/ContentCopy";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { useSnackbar } from "../../../lib/snackbar.ts";
import { useRotateWidgetKey } from "../api/call-widgets-api.ts";
import { snippetOf } from "../forms/widget-form.ts";

/** The script tag to paste into a site, with copy, and the key's rotation (after a confirmation). */
export function WidgetSnippet(props: { widgetId: string; scriptUrl: string; publicKey: string }) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const rotate = useRotateWidgetKey(props.widgetId);
  const [confirming, setConfirming] = useState(false);
  const snippet = snippetOf(props.scriptUrl, props.publicKey);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      enqueueSnackbar(t("copied"), { variant: "success" });
    } catch {
      enqueueSnackbar(t("copyFailed"), { variant: "error" });
    }
  };
  const confirmRotate = () => {
    setConfirming(false);
    rotate.mutate(undefined, {
      onSuccess: () => enqueueSnackbar(t("keyRotated"), { variant: "success" }),
      onError: (error) => enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" }),
    });
  };
  return (
    <Paper sx={{ p: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t("snippetTitle")}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("snippetHint")}
      </Typography>
      <Box
        component="pre"
        dir="ltr"
        data-testid="widget-snippet"
        tabIndex={0}
        sx={{
          m: 0,
          p: 2,
          borderRadius: 1,
          bgcolor: "action.hover",
          fontFamily: "monospace",
          fontSize: 13,
          whiteSpace: "pre-wrap",
          wordBreak: "break-all",
          textAlign: "left",
        }}
      >
        {snippet}
      </Box>
      <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: "wrap" }}>
        <Button variant="outlined" startIcon={<ContentCopy />} onClick={() => void copy()}>
          {t("copySnippet")}
        </Button>
        <Button startIcon={<Autorenew />} onClick={() => setConfirming(true)} disabled={rotate.isPending}>
          {t("rotateKey")}
        </Button>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={t("rotateTitle")}
        text={t("rotateText")}
        confirmLabel={t("rotateKey")}
        onClose={() => setConfirming(false)}
        onConfirm={confirmRotate}
      />
    </Paper>
  );
}
