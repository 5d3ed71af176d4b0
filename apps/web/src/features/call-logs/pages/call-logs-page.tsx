import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { CALL_LOGS_PAGE_SIZE, type CallLog, type CallLogSummary, CallLogsQuery } from "@parley/contract";
import type { TFunction } from "i18next";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { type Column, DataTable } from "../../../components/data-table.tsx";
import { errorText } from "../../../components/error-text.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { paths } from "../../../config/paths.ts";
import { type DatesInLanguage, useDates } from "../../../lib/dates-in-language.ts";
import { validParams } from "../../../lib/url-params.ts";
import { useDeferredQuery } from "../../../lib/use-deferred-query.ts";
import { useListUrlState } from "../../../lib/use-list-url-state.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { useCallLogs, useDeleteCallLog } from "../api/call-logs-api.ts";
import { CallLogDetail } from "../components/call-log-detail.tsx";
import { CallLogFilters, type Filters } from "../components/call-log-filters.tsx";
import { LiveRooms } from "../components/live-rooms.tsx";
import { formatDuration, formatMoney } from "../format.ts";

const FILTER_KEYS = [
  "agent_id",
  "status",
  "channel",
  "success",
  "analysis_status",
  "date_from",
  "date_to",
  "search",
] as const;

/** A hand-edited or stale URL value the API would refuse is dropped, so the page never shows a validation error. */
const validFilter = (key: (typeof FILTER_KEYS)[number], value: string) =>
  value !== "" && CallLogsQuery.shape[key].safeParse(value).success;

/** Filters, page and the open call live in the URL, so a view can be shared and survives reload. */
function useUrlState() {
  const { params, page, update, setPage } = useListUrlState();
  const filters: Filters = validParams(params, FILTER_KEYS, validFilter);
  return { filters, page, openId: params.get("call"), update, setPage };
}

/** Each call: when, with which assistant, over which channel and which way, between whom, how it ended, how long, what it cost. */
const callLogColumns = (t: TFunction, dates: DatesInLanguage): Column<CallLogSummary>[] => [
  { header: t("columns.started"), cell: (log) => dates.moment(log.started_at) },
  { header: t("columns.assistant"), dir: "auto", cell: (log) => log.agent_name },
  { header: t("columns.channel"), cell: (log) => t(`channel.${log.channel}`) },
  { header: t("columns.direction"), cell: (log) => t(`direction.${log.direction}`) },
  {
    header: t("columns.parties"),
    cell: (log) => (log.from_number || log.to_number ? `${log.from_number ?? "—"} → ${log.to_number ?? "—"}` : "—"),
  },
  {
    header: t("columns.status"),
    cell: (log) => (
      <Chip size="small" label={t(`status.${log.status}`)} color={log.status === "failed" ? "error" : "default"} />
    ),
  },
  {
    header: t("columns.reason"),
    cell: (log) => (log.end_reason ? t(`reasons.${log.end_reason}`, log.end_reason) : "—"),
  },
  { header: t("columns.duration"), cell: (log) => formatDuration(log.duration_seconds) },
  { header: t("columns.cost"), cell: (log) => formatMoney(log.cost) },
];

/** /call-logs and /call-logs/batch-call-id/{id}: an id that cannot name a batch call is not found. */
export default function CallLogsRoute() {
  const { batchCallId } = useParams();
  const known = batchCallId === undefined || CallLogsQuery.shape.batch_call_id.safeParse(batchCallId).success;
  return known ? <CallLogsPage batchCallId={batchCallId} /> : <BatchNotFound />;
}

function BatchNotFound() {
  const { t } = useTranslation("call-logs");
  return (
    <>
      <PageHeader title={t("title")} />
      <Paper role="alert" sx={{ p: 4, textAlign: "center" }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t("batchNotFound")}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t("batchNotFoundHint")}
        </Typography>
        <Button variant="outlined" component={Link} to={paths.callLogs}>
          {t("allCalls")}
        </Button>
      </Paper>
    </>
  );
}

function CallLogsPage({ batchCallId }: { batchCallId: string | undefined }) {
  const { t } = useTranslation("call-logs");
  const dates = useDates();
  const notice = useNotice();
  const deleteCallLog = useDeleteCallLog();
  const { filters, page, openId, update, setPage } = useUrlState();
  const [deleting, setDeleting] = useState<CallLog | null>(null);
  const query = { ...filters, batch_call_id: batchCallId, page, items_per_page: CALL_LOGS_PAGE_SIZE };
  // The table is drawn in an interruptible render once a page arrives (lib/use-deferred-query.ts).
  const logs = useDeferredQuery(useCallLogs(query));
  const changeFilters = useCallback(
    (next: Filters) => update({ ...Object.fromEntries(FILTER_KEYS.map((k) => [k, next[k]])), page: undefined }),
    [update],
  );

  const remove = async (log: CallLog) => {
    setDeleting(null);
    if (await notice.run(deleteCallLog.mutateAsync(log.id), t("deleted"), t("deleteFailed")))
      update({ call: undefined });
  };

  return (
    <>
      <PageHeader title={t("title")} subtitle={t("subtitle")} />
      <LiveRooms />
      {batchCallId && (
        <Chip
          sx={{ mb: 2 }}
          label={t("batchFilter", { id: batchCallId })}
          component={Link}
          to={paths.callLogs}
          clickable
          onDelete={() => undefined}
        />
      )}
      <CallLogFilters value={filters} onChange={changeFilters} />
      {logs.isPending && <CircularProgress aria-label={t("loading")} />}
      {logs.isError && <Alert severity="error">{errorText(logs.error, t("failed"))}</Alert>}
      {logs.data?.total_count === 0 && (
        <Paper sx={{ p: 4, textAlign: "center" }}>
          <Typography sx={{ mb: 2 }}>
            {batchCallId ? t("batchEmpty") : Object.keys(filters).length > 0 ? t("noMatches") : t("empty")}
          </Typography>
          <Button variant="outlined" component={Link} to={paths.assistant}>
            {t("tryCall")}
          </Button>
        </Paper>
      )}
      {logs.data && logs.data.total_count > 0 && (
        <DataTable
          label={t("title")}
          size="small"
          rows={logs.data.data}
          columns={callLogColumns(t, dates)}
          rowProps={(log) => ({
            hover: true,
            tabIndex: 0,
            sx: { cursor: "pointer" },
            onClick: () => update({ call: log.id }),
            onKeyDown: (e) => (e.key === "Enter" || e.key === " ") && update({ call: log.id }),
            "aria-label": t("openCall", {
              assistant: log.agent_name,
              time: dates.moment(log.started_at),
            }),
          })}
          pagination={{ count: logs.data.total_count, page, pageSize: CALL_LOGS_PAGE_SIZE, onPage: setPage }}
        />
      )}
      <CallLogDetail id={openId} onClose={() => update({ call: undefined })} onDelete={setDeleting} />
      <ConfirmDialog
        open={deleting !== null}
        title={t("deleteTitle")}
        text={t("deleteText")}
        confirmLabel={t("delete")}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      />
    </>
  );
}
