import ContentCopy from "@mui/icons-material/ContentCopy";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** A value to paste elsewhere (SIP credentials, a webhook address): read-only, with a copy button named for it. */
export function CopyValue({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      // Without clipboard permission the text can still be selected in the field.
      setCopied("failed");
    }
  };
  const title =
    copied === "yes" ? t("copied") : copied === "failed" ? t("copyFailed") : t("copyNamed", { name: label });
  return (
    <TextField
      label={label}
      value={value}
      fullWidth
      slotProps={{
        htmlInput: { readOnly: true, dir: "ltr", spellCheck: false, "data-secret": secret || undefined },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={title} onClose={() => setCopied(null)}>
                <IconButton aria-label={t("copyNamed", { name: label })} onClick={() => void copy()} edge="end">
                  <ContentCopy fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
      onFocus={(event) => event.target.select()}
    />
  );
}
