import ContentCopy from "@mui/icons-material/ContentCopy";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import DialogContentText from "@mui/material/DialogContentText";
import type { WebhookEndpoint } from "@parley/contract";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DoneDialog } from "../../../components/done-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { ReadOnlyField } from "../../../components/read-only-field.tsx";
import { copyText } from "../../../lib/copy-text.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { useRevealSecret, useRotateSecret } from "../api/webhooks-api.ts";

/**
 * The endpoint's signing secret: read when the dialog opens (or given, right after creation), with
 * copy and rotate. Rotating asks first: receivers must switch to the new secret at once.
 */
export function SecretDialog(props: { endpoint: WebhookEndpoint; initial: string | null; onClose: () => void }) {
  const { t } = useTranslation(["webhooks", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
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
    if (await copyText(secret)) notice.success(t("secretCopied"));
    else notice.error(t("copyFailed"));
  };
  const doRotate = () => {
    setConfirming(false);
    rotate.mutate(endpoint.id, {
      onSuccess: (next) => {
        setSecret(next);
        notice.success(t("secretRotated"));
      },
      onError: notice.failure,
    });
  };

  return (
    <DoneDialog
      title={t("secretTitle")}
      doneLabel={t("done")}
      onClose={props.onClose}
      actions={
        <>
          <Button onClick={() => setConfirming(true)} disabled={rotate.isPending || secret === null}>
            {t("rotate")}
          </Button>
          <Button startIcon={<ContentCopy />} onClick={() => void copy()} disabled={secret === null}>
            {t("copySecret")}
          </Button>
        </>
      }
    >
      <DialogContentText sx={{ mb: 2 }}>{t("secretText")}</DialogContentText>
      {reveal.isError && <Alert severity="error">{errorText(reveal.error, t("common.failed"))}</Alert>}
      {secret === null && !reveal.isError && <CircularProgress aria-label={t("common.loading")} size={24} />}
      {secret !== null && <ReadOnlyField label={t("fields.secret")} value={secret} secret />}
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
    </DoneDialog>
  );
}
