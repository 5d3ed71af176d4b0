import ContentCopy from "@mui/icons-material/ContentCopy";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { visuallyHidden } from "../../../components/visually-hidden.ts";
import { copyText } from "../../../lib/copy-text.ts";

/**
 * The assistant's id under its name, with a copy button: what an API call, a phone number's
 * setup or a widget embed asks for. Selectable too, for a browser that refuses the clipboard.
 */
export function AssistantId({ id }: { id: string }) {
  const { t } = useTranslation("assistants");
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = async () => setCopied((await copyText(id)) ? "yes" : "failed");
  const title =
    copied === "yes" ? t("editor.idCopied") : copied === "failed" ? t("editor.idCopyFailed") : t("editor.copyId");
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: "center", minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary" component="span">
        {t("editor.id")}
      </Typography>
      <Typography
        variant="body2"
        component="code"
        dir="ltr"
        data-testid="assistant-id"
        sx={{ fontFamily: "monospace", overflowWrap: "anywhere", userSelect: "all" }}
      >
        {id}
      </Typography>
      <Tooltip title={title} onClose={() => setCopied(null)}>
        <IconButton size="small" aria-label={t("editor.copyId")} onClick={() => void copy()}>
          <ContentCopy fontSize="inherit" />
        </IconButton>
      </Tooltip>
      {/* The tooltip shows on hover; a screen reader hears the outcome of the press here. */}
      <span role="status" style={visuallyHidden}>
        {copied === "yes" ? t("editor.idCopied") : copied === "failed" ? t("editor.idCopyFailed") : ""}
      </span>
    </Stack>
  );
}
