import ContentCopy from "@mui/icons-material/ContentCopy";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import type { WebhookEndpoint } from "@parley/contract";
import { useSnackbar } from "notistack";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { useRevealSecret, useRotateSecret } from "../api/webhooks-api.ts";

/**
 * The endpoint's signing secret: read when the dialog opens (or given, right after creation), with
 * copy and rotate. Rotating asks first: receivers must switch to the new secret at once.
 */
export function SecretDialog(props: { endpoint: WebhookEndpoint; initial: string | null; onClose: () => void }) {
  const { t } = useTranslation(["webhooks", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const titleId = useId();
  const reveal = useRevealSecret();
  const rotate = useRotateSecret();
  const [secret, setSecret] = useState<string | null>(props.initial);
  const [confirming, setConfirming] = useState(false);
  const { endpoint, initial } = props;
  const { mutate: read } = reveal;

  useEffect(() => {
    if (initial === null) read(endpoint.id, { onSuccess: setSecret });
  }, [initial, endpoint.id, read]);

  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      enqueueSnackbar(t("secretCopied"), { variant: "success" });
    } catch {
      enqueueSnackbar(t("copyFailed"), { variant: "error" });
    }
  };
  const doRotate = () => {
    setConfirming(false);
    rotate.mutate(endpoint.id, {
      onSuccess: (next) => {
        setSecret(next);
        enqueueSnackbar(t("secretRotated"), { variant: "success" });
      },
      onError: (error) => enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" }),
    });
  };

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t("secretTitle")}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t("secretText")}</DialogContentText>
        {reveal.isError && <Alert severity="error">{errorText(reveal.error, t("common.failed"))}</Alert>}
        {secret === null && !reveal.isError && <CircularProgress aria-label={t("common.loading")} size={24} />}
        {secret !== null && (
          <TextField
            label={t("fields.secret")}
            value={secret}
            fullWidth
            slotProps={{ htmlInput: { readOnly: true, dir: "ltr", spellCheck: false, "data-secret": true } }}
            onFocus={(event) => event.target.select()}
          />
        )}
        {confirming && (
          <Alert
            severity="warning"
            sx={{ mt: 2 }}
            action={
              <Button color="inherit" onClick={doRotate}>
                {t("rotateConfirm")}
              </Button>
            }
          >
            {t("rotateText")}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setConfirming(true)} disabled={rotate.isPending || secret === null}>
          {t("rotate")}
        </Button>
        <Button startIcon={<ContentCopy />} onClick={() => void copy()} disabled={secret === null}>
          {t("copySecret")}
        </Button>
        <Button variant="contained" onClick={props.onClose}>
          {t("done")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
