import ContentCopy from "@mui/icons-material/ContentCopy";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import type { CreatedApiKey } from "@parley/contract";
import { useSnackbar } from "notistack";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";

/**
 * The new key's secret, shown this once: copy it, then close. Closing asks nothing more — the list
 * says the secret cannot be shown again, and a lost key is revoked and replaced.
 */
export function SecretDialog({ created, onClose }: { created: CreatedApiKey; onClose: () => void }) {
  const { t } = useTranslation(["api-keys", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const titleId = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied(true);
      enqueueSnackbar(t("copied"), { variant: "success" });
    } catch {
      // Without clipboard permission the secret can still be selected in the field.
      enqueueSnackbar(t("copyFailed"), { variant: "error" });
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t("secretTitle", { name: created.name })}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t("secretOnce")}
        </Alert>
        <TextField
          label={t("fields.secret")}
          value={created.secret}
          fullWidth
          multiline
          slotProps={{ htmlInput: { readOnly: true, dir: "ltr", spellCheck: false, "data-secret": true } }}
          onFocus={(event) => event.target.select()}
        />
      </DialogContent>
      <DialogActions>
        <Button startIcon={<ContentCopy />} onClick={() => void copy()}>
          {copied ? t("copiedShort") : t("copy")}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t("done")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
