import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { CallLogSummary, CallStatsResponse } from "@parley/contract";
import type { UseQueryResult } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { paths } from "../../../config/paths.ts";
import { useDates } from "../../../lib/dates-in-language.ts";

const STATUS_COLOURS = {
  queued: "default",
  in_progress: "info",
  completed: "success",
  failed: "error",
} as const;

/** 75 → "1:15". */
export const formatDuration = (seconds: number) => {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
};

function CallRow({ call }: { call: CallLogSummary }) {
  const { t, i18n } = useTranslation("home");
  const dates = useDates();
  const money = new Intl.NumberFormat(i18n.language, { style: "currency", currency: "USD" });
  return (
    <ListItemButton component={Link} to={paths.callLogs} divider>
      <ListItemText
        primary={call.agent_name}
        slotProps={{ primary: { dir: "auto" } }}
        secondary={[
          dates.moment(call.started_at),
          t(`channels.${call.channel}`),
          formatDuration(call.duration_seconds),
          money.format(call.cost),
        ].join(" · ")}
      />
      <Chip size="small" color={STATUS_COLOURS[call.status]} label={t(`statuses.${call.status}`)} />
    </ListItemButton>
  );
}

/** The workspace's latest calls, each leading to the call logs. */
export function RecentCallsCard({ stats }: { stats: UseQueryResult<CallStatsResponse> }) {
  const { t } = useTranslation(["home", "translation"], { nsMode: "fallback" });
  const calls = stats.data?.recent_calls;
  return (
    <Card component="section" aria-labelledby="recent-calls-title" sx={{ height: "100%" }}>
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: "space-between", alignItems: "center", mb: 1 }}>
          <Typography id="recent-calls-title" variant="h6" component="h2">
            {t("recentCalls")}
          </Typography>
          <Button component={Link} to={paths.callLogs} size="small">
            {t("allCalls")}
          </Button>
        </Stack>
        {stats.isPending && <ListSkeleton label={t("loading")} rows={4} height={48} />}
        {stats.isError && <Alert severity="error">{errorText(stats.error, t("common.failed"))}</Alert>}
        {calls?.length === 0 && (
          <Stack sx={{ py: 3, textAlign: "center" }}>
            <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
              {t("noCalls")}
            </Typography>
            <Typography color="text.secondary">{t("noCallsHint")}</Typography>
          </Stack>
        )}
        {calls && calls.length > 0 && (
          <List aria-labelledby="recent-calls-title" disablePadding>
            {calls.map((call) => (
              <CallRow key={call.id} call={call} />
            ))}
          </List>
        )}
      </CardContent>
    </Card>
  );
}
