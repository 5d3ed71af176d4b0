import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { CALL_LOGS_PAGE_SIZE, type CallLog, CallLogsQuery } from "@parley/contract";
import { useSnackbar } from "notistack";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { paths } from "../../../config/paths.ts";
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
  const [params, setParams] = useSearchParams();
  const filters: Filters = Object.fromEntries(
    FILTER_KEYS.flatMap((k) => {
      const value = params.get(k);
      return value !== null && validFilter(k, value) ? [[k, value]] : [];
    }),
  );
  const page = Math.max(1, Number(params.get("page") ?? 1) || 1);
  const openId = params.get("call");
  const update = useCallback(
    (patch: Record<string, string | undefined>) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        for (const [k, v] of Object.entries(patch)) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        return next;
      }),
    [setParams],
  );
  return { filters, page, openId, update };
}

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
  const { enqueueSnackbar } = useSnackbar();
  const deleteCallLog = useDeleteCallLog();
  const { filters, page, openId, update } = useUrlState();
  const [deleting, setDeleting] = useState<CallLog | null>(null);
  const query = { ...filters, batch_call_id: batchCallId, page, items_per_page: CALL_LOGS_PAGE_SIZE };
  const logs = useCallLogs(query);
  const changeFilters = useCallback(
    (next: Filters) => update({ ...Object.fromEntries(FILTER_KEYS.map((k) => [k, next[k]])), page: undefined }),
    [update],
  );

  const remove = async (log: CallLog) => {
    setDeleting(null);
    try {
      await deleteCallLog.mutateAsync(log.id);
      enqueueSnackbar(t("deleted"), { variant: "success" });
      update({ call: undefined });
    } catch (error) {
      enqueueSnackbar(errorText(error, t("deleteFailed")), { variant: "error" });
    }
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
        <TableContainer component={Paper}>
          <Table aria-label={t("title")} size="small">
            <TableHead>
              <TableRow>
                {["started", "assistant", "channel", "parties", "status", "reason", "duration", "cost"].map((c) => (
                  <TableCell key={c}>{t(`columns.${c}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {logs.data.data.map((log) => (
                <TableRow
                  key={log.id}
                  hover
                  tabIndex={0}
                  sx={{ cursor: "pointer" }}
                  onClick={() => update({ call: log.id })}
                  onKeyDown={(e) => (e.key === "Enter" || e.key === " ") && update({ call: log.id })}
                  aria-label={t("openCall", {
                    assistant: log.agent_name,
                    time: new Date(log.started_at).toLocaleString(),
                  })}
                >
                  <TableCell>{new Date(log.started_at).toLocaleString()}</TableCell>
                  <TableCell dir="auto">{log.agent_name}</TableCell>
                  <TableCell>{t(`channel.${log.channel}`)}</TableCell>
                  <TableCell>
                    {log.from_number || log.to_number ? `${log.from_number ?? "—"} → ${log.to_number ?? "—"}` : "—"}
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      label={t(`status.${log.status}`)}
                      color={log.status === "failed" ? "error" : "default"}
                    />
                  </TableCell>
                  <TableCell>{log.end_reason ? t(`reasons.${log.end_reason}`, log.end_reason) : "—"}</TableCell>
                  <TableCell>{formatDuration(log.duration_seconds)}</TableCell>
                  <TableCell>{formatMoney(log.cost)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={logs.data.total_count}
            page={page - 1}
            rowsPerPage={CALL_LOGS_PAGE_SIZE}
            rowsPerPageOptions={[CALL_LOGS_PAGE_SIZE]}
            onPageChange={(_, p) => update({ page: p > 0 ? String(p + 1) : undefined })}
          />
        </TableContainer>
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
