import Alert from "@mui/material/Alert";
import Link from "@mui/material/Link";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { CallLogSummary } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { paths } from "../../../config/paths.ts";
import { datesIn } from "../../../lib/dates-in-language.ts";
import { useRecentCalls } from "../api/recent-calls-api.ts";

/** The call logs filtered to this number (their search matches from and to numbers), with one call open. */
const callLogsOf = (number: string, callId?: string) => {
  const query = new URLSearchParams({ search: number });
  if (callId) query.set("call", callId);
  return `${paths.callLogs}?${query}`;
};

/** The number's latest calls, each opening its call log. */
export function RecentCallsCard({ number }: { number: string }) {
  const { t, i18n } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const calls = useRecentCalls(number);
  const other = (call: CallLogSummary) => (call.direction === "outbound" ? call.to_number : call.from_number) ?? "";
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack direction="row" sx={{ mb: 1, justifyContent: "space-between", alignItems: "baseline" }}>
        <Typography variant="h6" component="h2">
          {t("detail.recentCalls")}
        </Typography>
        <Link component={RouterLink} to={callLogsOf(number)}>
          {t("detail.allCalls")}
        </Link>
      </Stack>
      {calls.isPending ? (
        <ListSkeleton label={t("common.loading")} rows={2} height={48} />
      ) : calls.error ? (
        <Alert severity="error">{errorText(calls.error, t("common.failed"))}</Alert>
      ) : calls.data.length === 0 ? (
        <Typography color="text.secondary">{t("detail.noCalls")}</Typography>
      ) : (
        <List aria-label={t("detail.recentCalls")} dense disablePadding>
          {calls.data.map((call) => (
            <ListItemButton key={call.id} component={RouterLink} to={callLogsOf(number, call.id)}>
              <ListItemText
                primary={
                  <>
                    {t(`detail.directions.${call.direction}`)} <span dir="ltr">{other(call)}</span> · {call.agent_name}
                  </>
                }
                secondary={`${datesIn(i18n.language).moment(call.started_at)} · ${t(`detail.statuses.${call.status}`)} · ${t("detail.seconds", { value: Math.round(call.duration_seconds) })}`}
              />
            </ListItemButton>
          ))}
        </List>
      )}
    </Paper>
  );
}
