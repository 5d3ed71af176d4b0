import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { TtsAudioBody } from "@parley/contract";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnackbar } from "../../lib/snackbar.ts";
import { errorText } from "../error-text.ts";
import { MissingKeyNote } from "../missing-key/missing-key-note.tsx";
import { previewVoice, type VoiceSample } from "./preview-voice.ts";

export type VoicePreviewRequest = Omit<TtsAudioBody, "workspace_id">;

/**
 * Plays a sample of a voice with its current settings; the caller passes the workspace. When the
 * caller knows the provider's key is missing (`missingKey`, the provider's label), the button is
 * disabled and says so, instead of failing after the press.
 */
export function VoicePreviewButton({
  request,
  workspaceId,
  label,
  missingKey,
}: {
  request: VoicePreviewRequest;
  workspaceId: string | null | undefined;
  label?: string;
  missingKey?: string;
}) {
  const noteId = useId();
  const { t } = useTranslation("voice-preview");
  const { enqueueSnackbar } = useSnackbar();
  const [busy, setBusy] = useState(false);
  const [sample, setSample] = useState<VoiceSample | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);

  useEffect(() => () => (sample ? URL.revokeObjectURL(sample.url) : undefined), [sample]);

  const play = async () => {
    setBusy(true);
    try {
      const next = await previewVoice({ ...request, workspace_id: workspaceId });
      setSample(next);
      queueMicrotask(() => void audio.current?.play().catch(() => undefined));
    } catch (error) {
      enqueueSnackbar(errorText(error, t("failed")), { variant: "error" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: "center", flexWrap: "wrap" }}>
      <Button
        variant="outlined"
        onClick={() => void play()}
        disabled={busy || missingKey !== undefined}
        aria-describedby={missingKey ? noteId : undefined}
        startIcon={busy ? <CircularProgress size={16} aria-label={t("loading")} /> : <PlayArrowIcon />}
      >
        {label ?? t("play")}
      </Button>
      {missingKey && <MissingKeyNote id={noteId} purpose="voice" providers={[missingKey]} />}
      {sample && (
        <>
          {/* biome-ignore lint/a11y/useMediaCaption: a synthesized voice sample has no caption track */}
          <audio ref={audio} src={sample.url} controls aria-label={t("sample")} data-testid="voice-sample" />
          <Typography variant="body2" color="text.secondary">
            {t("details", { seconds: sample.durationSeconds.toFixed(1), voice: sample.voice, model: sample.model })}
          </Typography>
        </>
      )}
    </Stack>
  );
}
