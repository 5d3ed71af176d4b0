import CloseIcon from "@mui/icons-material/Close";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Divider from "@mui/material/Divider";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { CallLog, CallLogEvent } from "@parley/contract";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { CallAnalysisView } from "../../../components/call-analysis/call-analysis-view.tsx";
import { errorText } from "../../../components/error-text.ts";
import { useDates } from "../../../lib/dates-in-language.ts";
import { fetchRecordingUrl, useCallLog } from "../api/call-logs-api.ts";
import { eventText, reasonText } from "../event-text.ts";
import { formatDuration, formatMoney, formatOffset } from "../format.ts";
import { CallSegments } from "./call-segments.tsx";
import { LatencyChart } from "./latency-chart.tsx";
import { WorkflowPath } from "./workflow-path.tsx";

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="section" sx={{ mb: 3 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Recording({ id }: { id: string }) {
  const { t } = useTranslation("call-logs");
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let current: string | null = null;
    fetchRecordingUrl(id).then(
      (u) => {
        current = u;
        setUrl(u);
      },
      (e: unknown) => setError(e),
    );
    return () => {
      if (current) URL.revokeObjectURL(current);
    };
  }, [id]);
  if (error) return <Typography color="error">{errorText(error, t("detail.recordingFailed"))}</Typography>;
  if (!url) return <CircularProgress size={20} aria-label={t("detail.loadingRecording")} />;
  // biome-ignore lint/a11y/useMediaCaption: the transcript beside the player is the caption
  return <audio controls src={url} aria-label={t("detail.recording")} style={{ width: "100%" }} />;
}

function EventLine({ event }: { event: CallLogEvent }) {
  const { t } = useTranslation("call-logs");
  const { text, detail } = eventText(event, t);
  return (
    <Box component="li" data-event={event.type} sx={{ mb: 0.5 }}>
      <Typography variant="body2">
        {formatOffset(event.at_ms)} · {text}
      </Typography>
      {detail && (
        <Typography variant="caption" color="text.secondary" component="p" dir="auto" sx={{ overflowWrap: "anywhere" }}>
          {detail}
        </Typography>
      )}
    </Box>
  );
}

function Body({ log }: { log: CallLog }) {
  const { t } = useTranslation("call-logs");
  const dates = useDates();
  const { t: tAnalysis } = useTranslation("call-analysis");
  // A call whose end reason reports a fault (a backup took over, a tool timed out) says how it really ended.
  const endedAs = log.events.find((event) => event.type === "ended");
  return (
    <>
      <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", rowGap: 1, mb: 2 }}>
        <Chip label={t(`status.${log.status}`)} color={log.status === "failed" ? "error" : "default"} />
        <Chip variant="outlined" label={t(`channel.${log.channel}`)} />
        <Chip variant="outlined" label={t(`direction.${log.direction}`)} />
        {log.end_reason && <Chip variant="outlined" label={reasonText(t, log.end_reason)} />}
        {endedAs && <Chip variant="outlined" label={t("detail.endedAs", { reason: reasonText(t, endedAs.reason) })} />}
        <Chip variant="outlined" label={formatDuration(log.duration_seconds)} />
        <Chip variant="outlined" label={formatMoney(log.cost)} />
        {typeof log.agent_version === "number" && (
          <Chip variant="outlined" label={t("detail.version", { number: log.agent_version })} />
        )}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {dates.moment(log.started_at)}
        {log.from_number || log.to_number ? ` · ${log.from_number ?? "—"} → ${log.to_number ?? "—"}` : ""}
        {log.origin ? ` · ${t("detail.origin", { origin: log.origin })}` : ""}
      </Typography>
      {log.analysis && (
        <Section title={tAnalysis("view.title")}>
          <CallAnalysisView analysis={log.analysis} />
        </Section>
      )}
      {log.segments && log.segments.length > 0 && (
        <Section title={t("segments.title")}>
          <CallSegments segments={log.segments} />
        </Section>
      )}
      {log.workflow && (
        <Section title={t("detail.workflow")}>
          <WorkflowPath workflow={log.workflow} />
        </Section>
      )}
      <Section title={t("detail.recording")}>
        {log.has_recording ? (
          <Recording id={log.id} />
        ) : (
          <Typography color="text.secondary">{t("detail.noRecording")}</Typography>
        )}
      </Section>
      <Section title={t("detail.transcript")}>
        {log.transcript.length === 0 && <Typography color="text.secondary">{t("detail.noTranscript")}</Typography>}
        <Box component="ol" aria-label={t("detail.transcript")} sx={{ listStyle: "none", p: 0, m: 0 }}>
          {log.transcript.map((entry) => (
            <Box
              component="li"
              key={`${entry.at_ms}-${entry.role}-${entry.text.length}`}
              data-role={entry.role}
              sx={{ mb: 1 }}
            >
              <Typography variant="caption" color="text.secondary">
                {formatOffset(entry.at_ms)} · {t(`roles.${entry.role}`)}
              </Typography>
              <Typography variant="body2" dir="auto">
                {entry.text}
              </Typography>
            </Box>
          ))}
        </Box>
      </Section>
      <Section title={t("detail.latency")}>
        {log.turn_metrics.length === 0 ? (
          <Typography color="text.secondary">{t("detail.noMetrics")}</Typography>
        ) : (
          <LatencyChart turns={log.turn_metrics} />
        )}
      </Section>
      <Section title={t("detail.toolCalls")}>
        {log.tool_calls.length === 0 && <Typography color="text.secondary">{t("detail.noToolCalls")}</Typography>}
        {log.tool_calls.map((call) => (
          <Box key={`${call.at_ms}-${call.name}`} sx={{ mb: 1.5 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {call.name} · {call.ok ? t("detail.ok") : t("detail.failedCall")} · {Math.round(call.duration_ms)} ms
            </Typography>
            <Typography variant="caption" component="pre" sx={{ whiteSpace: "pre-wrap", m: 0 }}>
              {call.arguments}
              {"\n→ "}
              {call.result}
            </Typography>
          </Box>
        ))}
      </Section>
      {log.events.length > 0 && (
        <Section title={t("detail.events")}>
          <Box component="ol" aria-label={t("detail.events")} sx={{ listStyle: "none", p: 0, m: 0 }}>
            {log.events.map((event, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the stored log never reorders, and two faults can share a millisecond
              <EventLine key={`${event.at_ms}-${event.type}-${index}`} event={event} />
            ))}
          </Box>
        </Section>
      )}
      {log.cost_breakdown && (
        <Section title={t("detail.cost")}>
          <Typography variant="body2">
            {t("detail.costLine", {
              minutes: log.cost_breakdown.minutes.toFixed(2),
              perMinute: formatMoney(log.cost_breakdown.per_minute),
            })}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {(["stt", "llm", "tts", "telephony", "platform"] as const)
              .map((k) => `${t(`cost.${k}`)} ${formatMoney(log.cost_breakdown?.[k] ?? 0)}`)
              .join(" · ")}
          </Typography>
        </Section>
      )}
    </>
  );
}

/** One call: summary, recording, transcript with times, latency per turn, tool calls, cost. */
export function CallLogDetail({
  id,
  onClose,
  onDelete,
}: {
  id: string | null;
  onClose: () => void;
  onDelete: (log: CallLog) => void;
}) {
  const { t } = useTranslation("call-logs");
  const log = useCallLog(id);
  return (
    <Drawer
      anchor="right"
      open={Boolean(id)}
      onClose={onClose}
      // The paper is the drawer's dialog: it needs a name of its own (axe aria-dialog-name).
      slotProps={{ paper: { sx: { width: { xs: "100%", sm: 560 } }, "aria-label": t("detail.title") } }}
    >
      <Box sx={{ p: 3 }} role="region" aria-label={t("detail.title")}>
        <Stack direction="row" sx={{ alignItems: "center", mb: 2 }}>
          <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
            {log.data ? log.data.agent_name : t("detail.title")}
          </Typography>
          {log.data && (
            <Button color="error" startIcon={<DeleteOutline />} onClick={() => log.data && onDelete(log.data)}>
              {t("delete")}
            </Button>
          )}
          <IconButton onClick={onClose} aria-label={t("detail.close")}>
            <CloseIcon />
          </IconButton>
        </Stack>
        <Divider sx={{ mb: 2 }} />
        {log.isPending && <CircularProgress aria-label={t("loading")} />}
        {log.isError && <Alert severity="error">{errorText(log.error, t("detail.failed"))}</Alert>}
        {log.data && <Body log={log.data} />}
      </Box>
    </Drawer>
  );
}
