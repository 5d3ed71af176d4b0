import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ExtensionState } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { useExtensionStatus } from "../../../api/phone-numbers.ts";
import { errorText } from "../../../components/error-text.ts";

const COLOR: Record<ExtensionState, "success" | "default" | "info" | "warning" | "error"> = {
  REGED: "success",
  NOREG: "default",
  RUNNING: "info",
  ALIASED: "warning",
  NOT_FOUND: "error",
};

/**
 * An extension's registration, asked every few seconds (spec §3 values shown in words: a phone
 * registers or drops at any time). The chip is a live region, so a change is announced.
 */
export function ExtensionStatusChip({ extension, domain }: { extension: string; domain: string }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const status = useExtensionStatus({ extension, domain });
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center" }} role="status" aria-live="polite">
      <Typography variant="body2" component="span">
        {t("extension.registration")}
      </Typography>
      {status.data ? (
        <Chip
          size="small"
          color={COLOR[status.data.status]}
          label={t(`extension.states.${status.data.status}`)}
          title={status.data.status}
          data-status={status.data.status}
          data-testid="extension-status"
        />
      ) : status.error ? (
        <Typography variant="body2" color="error" component="span">
          {errorText(status.error, t("common.failed"))}
        </Typography>
      ) : (
        <CircularProgress size={16} aria-label={t("common.loading")} />
      )}
      {status.data?.contact && (
        <Typography variant="caption" color="text.secondary" dir="ltr" component="span">
          {status.data.contact}
        </Typography>
      )}
    </Stack>
  );
}
