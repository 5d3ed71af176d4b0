import ContentCopy from "@mui/icons-material/ContentCopy";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import Tooltip from "@mui/material/Tooltip";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ReadOnlyField } from "../../../components/read-only-field.tsx";
import { copyText } from "../../../lib/copy-text.ts";

/** A value to paste elsewhere (SIP credentials, a webhook address): read-only, with a copy button named for it. */
export function CopyValue({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = async () => setCopied((await copyText(value)) ? "yes" : "failed");
  const title =
    copied === "yes" ? t("copied") : copied === "failed" ? t("copyFailed") : t("copyNamed", { name: label });
  return (
    <ReadOnlyField
      label={label}
      value={value}
      secret={secret}
      end={
        <InputAdornment position="end">
          <Tooltip title={title} onClose={() => setCopied(null)}>
            <IconButton aria-label={t("copyNamed", { name: label })} onClick={() => void copy()} edge="end">
              <ContentCopy fontSize="small" />
            </IconButton>
          </Tooltip>
        </InputAdornment>
      }
    />
  );
}
