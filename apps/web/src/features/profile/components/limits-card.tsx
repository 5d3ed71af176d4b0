import TuneOutlined from "@mui/icons-material/TuneOutlined";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { MyLimits } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { SectionCard } from "../../../components/section-card.tsx";
import { useMyLimits } from "../api/profile-api.ts";

/** Why these numbers apply: the plan (which an admin may edit) or an override set by hand. */
function SourceText({ limits }: { limits: MyLimits }) {
  const { t } = useTranslation(["profile", "translation"], { nsMode: "fallback" });
  if (limits.source === "enterprise") {
    return (
      <Typography color="text.secondary" component="div">
        <Chip size="small" variant="outlined" icon={<TuneOutlined />} label={t("limitsOverride")} sx={{ mr: 1 }} />
        <span>
          {limits.tier_name ? t("limitsOverrideText", { tier: limits.tier_name }) : t("limitsOverrideNoTier")}
        </span>
      </Typography>
    );
  }
  return (
    <Typography color="text.secondary">
      {limits.source === "tier" && limits.tier_name ? t("limitsFromTier", { tier: limits.tier_name }) : t("limitsNone")}
    </Typography>
  );
}

/** The signed-in user's own limits, marked when an admin's override rather than their plan sets them. */
export function LimitsCard() {
  const { t, i18n } = useTranslation(["profile", "translation"], { nsMode: "fallback" });
  const limits = useMyLimits();
  const rows: [string, number | null][] = limits.data
    ? [
        [t("quota.assistants"), limits.data.max_assistants],
        [t("quota.minutes"), limits.data.minutes_per_month],
        [t("quota.concurrentCalls"), limits.data.concurrent_calls],
        [t("quota.workspaces"), limits.data.max_workspaces],
      ]
    : [];
  return (
    <SectionCard title={t("limitsTitle")} gap={1}>
      {limits.isPending && <Typography color="text.secondary">{t("common.loading")}</Typography>}
      {limits.isError && <Typography color="error">{errorText(limits.error, t("limitsFailed"))}</Typography>}
      {limits.data && (
        <Stack spacing={1}>
          <SourceText limits={limits.data} />
          {limits.data.source !== "none" &&
            rows.map(([label, value]) => (
              <Typography key={label} sx={{ display: "flex", justifyContent: "space-between", gap: 2 }}>
                <span>{label}</span>
                <strong>{value === null ? t("limitsUnlimited") : value.toLocaleString(i18n.language)}</strong>
              </Typography>
            ))}
        </Stack>
      )}
    </SectionCard>
  );
}
