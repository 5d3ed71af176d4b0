import ContentCopy from "@mui/icons-material/ContentCopy";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import type { CreatedApiKey } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DoneDialog } from "../../../components/done-dialog.tsx";
import { ReadOnlyField } from "../../../components/read-only-field.tsx";
import { copyText } from "../../../lib/copy-text.ts";
import { useNotice } from "../../../lib/use-notice.ts";

/**
 * The new key's secret, shown this once: copy it, then close. Closing asks nothing more — the list
 * says the secret cannot be shown again, and a lost key is revoked and replaced.
 */
export function SecretDialog({ created, onClose }: { created: CreatedApiKey; onClose: () => void }) {
  const { t } = useTranslation(["api-keys", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (await copyText(created.secret)) {
      setCopied(true);
      notice.success(t("copied"));
    } else notice.error(t("copyFailed"));
  };
  return (
    <DoneDialog
      title={t("secretTitle", { name: created.name })}
      doneLabel={t("done")}
      onClose={onClose}
      actions={
        <Button startIcon={<ContentCopy />} onClick={() => void copy()}>
          {copied ? t("copiedShort") : t("copy")}
        </Button>
      }
    >
      <Alert severity="warning" sx={{ mb: 2 }}>
        {t("secretOnce")}
      </Alert>
      <ReadOnlyField label={t("fields.secret")} value={created.secret} secret multiline />
    </DoneDialog>
  );
}
