import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { useRecordingUrl, useTestCallLog } from "../api/test-runs-api.ts";
import { TranscriptLines } from "./evidence-view.tsx";

/** A running test call's words so far, read from its call log as the call saves them. */
export function LiveTranscript({ callId }: { callId: string }) {
  const { t } = useTranslation("test-suites");
  const log = useTestCallLog(callId, true);
  const lines = log.data?.transcript ?? [];
  return (
    <div aria-live="polite">
      <Typography variant="subtitle2" component="h4">
        {t("result.liveTranscript")}
      </Typography>
      {lines.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t("result.waitingForWords")}
        </Typography>
      ) : (
        <TranscriptLines lines={lines} label={t("result.liveTranscript")} />
      )}
    </div>
  );
}

/** The finished call's recording, when its log has one. */
export function CallRecording({ callId }: { callId: string }) {
  const { t } = useTranslation("test-suites");
  const log = useTestCallLog(callId, false);
  if (log.isPending) return <CircularProgress size={20} aria-label={t("result.loadingRecording")} />;
  if (!log.data?.has_recording)
    return (
      <Typography variant="body2" color="text.secondary">
        {t("result.noRecording")}
      </Typography>
    );
  return <RecordingPlayer callId={callId} />;
}

function RecordingPlayer({ callId }: { callId: string }) {
  const { t } = useTranslation("test-suites");
  const recording = useRecordingUrl(callId);
  const url = recording.data;
  // The object URL holds the audio in memory until it is let go.
  useEffect(() => (url ? () => URL.revokeObjectURL(url) : undefined), [url]);
  if (recording.error)
    return <Typography color="error">{errorText(recording.error, t("result.recordingFailed"))}</Typography>;
  if (!url) return <CircularProgress size={20} aria-label={t("result.loadingRecording")} />;
  // biome-ignore lint/a11y/useMediaCaption: the call's transcript, one link away, is the caption
  return <audio controls src={url} aria-label={t("result.recording")} style={{ width: "100%" }} />;
}
