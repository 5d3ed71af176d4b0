import CallIcon from "@mui/icons-material/Call";
import CallEndIcon from "@mui/icons-material/CallEnd";
import MicIcon from "@mui/icons-material/Mic";
import MicOffIcon from "@mui/icons-material/MicOff";
import SendIcon from "@mui/icons-material/Send";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { MicrophoneError } from "@parley/browser-audio";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useLiveCall } from "../hooks/use-live-call.ts";
import { Keypad, KeypadToggle } from "./keypad.tsx";

const statusColor = { disconnected: "default", connecting: "warning", connected: "success", failed: "error" } as const;

/** Polls the audio levels while a call runs, at a rate a meter needs and React can afford. */
function useLevels(call: ReturnType<typeof useLiveCall>) {
  const [levels, setLevels] = useState({ microphone: 0, assistant: 0, playedMs: 0 });
  const active = call.status === "connected" || call.status === "connecting";
  const { levels: read, playedMs } = call;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setLevels({ ...read(), playedMs: playedMs() }), 100);
    return () => clearInterval(timer);
  }, [active, read, playedMs]);
  return levels;
}

function Meter({ label, value }: { label: string; value: number }) {
  // Speech RMS rarely passes 0.3; scale so normal speech fills most of the bar.
  const percent = Math.min(100, Math.round(value * 300));
  return (
    <Box sx={{ flex: 1 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <LinearProgress variant="determinate" value={percent} aria-label={label} />
    </Box>
  );
}

/**
 * Talk to an assistant from the browser: start and end the call, mute, see both sides of the
 * conversation as it happens, and type to the assistant.
 */
export function LiveCallPanel({
  assistantId,
  assistantName,
}: {
  assistantId: string | undefined;
  assistantName?: string;
}) {
  const { t } = useTranslation("live-call");
  const call = useLiveCall();
  // A squad's test call (issue 31), asked for by the squads page: ?squad=<id>&member=<name>.
  const [search] = useSearchParams();
  const squadId = search.get("squad");
  const squad = squadId ? { id: squadId, member: search.get("member") ?? undefined } : undefined;
  const levels = useLevels(call);
  const [draft, setDraft] = useState("");
  const [keypadOpen, setKeypadOpen] = useState(false);
  const chatEnd = useRef<HTMLDivElement>(null);
  const live = call.status === "connected" || call.status === "connecting";
  const ended = call.endReason !== null && !live;
  const keypadShown = keypadOpen && call.status === "connected";

  useEffect(() => {
    if (call.lines.length > 0) chatEnd.current?.scrollIntoView?.({ block: "nearest" });
  }, [call.lines]);

  const errorMessage =
    call.error instanceof MicrophoneError
      ? t(`microphone.${call.error.problem}`)
      : call.error instanceof Error
        ? call.error.message
        : call.error
          ? t("failed")
          : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    call.sendText(draft);
    setDraft("");
  };

  return (
    <Card data-testid="live-call" data-played-ms={levels.playedMs} data-status={call.status}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", mb: 2, flexWrap: "wrap", rowGap: 1 }}>
          <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            {assistantName ? t("titleNamed", { name: assistantName }) : t("title")}
          </Typography>
          <Chip
            size="small"
            color={statusColor[call.status]}
            label={t(`status.${call.status}`)}
            aria-label={t("statusLabel", { status: t(`status.${call.status}`) })}
          />
          {squad && (
            <Chip
              size="small"
              color="secondary"
              variant="outlined"
              label={call.speaker ? t("squadSpeaker", { member: call.speaker }) : t("squadCall")}
            />
          )}
          {call.assistantState && live && !call.fault && (
            <Chip size="small" variant="outlined" label={t(`state.${call.assistantState}`)} />
          )}
        </Stack>
        {call.fault && (live || call.fault.final) && (
          <Alert
            severity={call.fault.final ? "error" : "warning"}
            role="status"
            data-testid="call-fault"
            sx={{ mb: 2 }}
          >
            {t(call.fault.key, { stage: call.fault.stageKey ? t(call.fault.stageKey) : "" })}
          </Alert>
        )}
        {errorMessage && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {errorMessage}
          </Alert>
        )}
        {ended && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {t("ended", { reason: t(`reasons.${call.endReason}`, { defaultValue: call.endReason }) })}
          </Alert>
        )}
        <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
          {live ? (
            <Button variant="contained" color="error" startIcon={<CallEndIcon />} onClick={call.end}>
              {t("end")}
            </Button>
          ) : (
            <Button
              variant="contained"
              startIcon={<CallIcon />}
              onClick={() => void call.start(assistantId, squad)}
              disabled={!assistantId}
            >
              {t("start")}
            </Button>
          )}
          <IconButton
            onClick={call.toggleMute}
            disabled={!live}
            aria-pressed={call.muted}
            aria-label={call.muted ? t("unmute") : t("mute")}
          >
            {call.muted ? <MicOffIcon /> : <MicIcon />}
          </IconButton>
          <KeypadToggle
            open={keypadShown}
            disabled={call.status !== "connected"}
            onToggle={() => setKeypadOpen(!keypadShown)}
          />
        </Stack>
        {keypadShown && <Keypad onPress={call.pressKey} />}
        <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
          <Meter label={t("microphoneLevel")} value={live ? levels.microphone : 0} />
          <Meter label={t("assistantLevel")} value={live ? levels.assistant : 0} />
        </Stack>
        <Box
          role="log"
          aria-label={t("chat")}
          aria-live="polite"
          sx={{ height: 280, overflowY: "auto", border: 1, borderColor: "divider", borderRadius: 1, p: 1.5, mb: 1 }}
        >
          {call.lines.length === 0 && !ended && (
            <Typography color="text.secondary" variant="body2">
              {live ? t("listening") : t("emptyChat")}
            </Typography>
          )}
          {call.lines.map((line) => (
            <Box
              key={line.id}
              data-role={line.role}
              sx={{ display: "flex", justifyContent: line.role === "user" ? "flex-end" : "flex-start", mb: 1 }}
            >
              <Box
                sx={{
                  maxWidth: "80%",
                  px: 1.5,
                  py: 1,
                  borderRadius: 2,
                  bgcolor: line.role === "user" ? "primary.main" : "action.hover",
                  color: line.role === "user" ? "primary.contrastText" : "text.primary",
                  fontStyle: line.final ? "normal" : "italic",
                }}
              >
                <Typography variant="caption" component="div" sx={{ opacity: 0.8 }}>
                  {line.role === "user" ? t("you") : t("assistant")}
                </Typography>
                <Typography variant="body2" dir="auto">
                  {line.text}
                </Typography>
              </Box>
            </Box>
          ))}
          {ended && (
            <Typography
              data-role="system"
              variant="caption"
              color="text.secondary"
              sx={{ display: "block", textAlign: "center" }}
            >
              {t("callEnded")}
            </Typography>
          )}
          <div ref={chatEnd} />
        </Box>
        <Box component="form" onSubmit={submit} sx={{ display: "flex", gap: 1 }}>
          <TextField
            size="small"
            fullWidth
            label={t("typeMessage")}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            disabled={call.status !== "connected"}
          />
          <IconButton type="submit" aria-label={t("send")} disabled={call.status !== "connected" || !draft.trim()}>
            <SendIcon />
          </IconButton>
        </Box>
      </CardContent>
    </Card>
  );
}
