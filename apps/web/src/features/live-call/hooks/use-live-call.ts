import { type AudioIo, createAudioIo, openMicrophone } from "@parley/browser-audio";
import type { RealtimeServerMessage } from "@parley/contract";
import { useCallback, useEffect, useRef, useState } from "react";
import { callApi, realtimeUrl, type SquadStart, squadStart } from "../api/call-api.ts";
import { applyTranscript, type ChatLine, truncateAssistant } from "../utils/chat-log.ts";
import { type FaultStatus, faultStatus } from "../utils/fault-status.ts";
import { prepareCall } from "../utils/start-call.ts";

export type CallStatus = "disconnected" | "connecting" | "connected" | "failed";
export type AssistantState = "listening" | "thinking" | "speaking";

export interface LiveCall {
  status: CallStatus;
  error: unknown;
  muted: boolean;
  assistantState: AssistantState | null;
  lines: ChatLine[];
  callId: string | null;
  endReason: string | null;
  /** A provider that failed and what the call does about it, until the assistant is heard again. */
  fault: FaultStatus | null;
  /** The member of a squad's call speaking now (after a hand-off); null otherwise. */
  speaker: string | null;
  /** Starts a call with the assistant, or (with `squad`) a squad's call at one of its members. */
  start(assistantId: string | undefined, squad?: SquadStart): Promise<void>;
  end(): void;
  toggleMute(): void;
  sendText(text: string): void;
  /** A keypad press (0-9, * or #), as a phone would send it. */
  pressKey(digit: string): void;
  levels(): { microphone: number; assistant: number };
  playedMs(): number;
}

/**
 * A live browser call (spec §4 "Live call connection"): disconnected → connecting after a
 * successful start → connected (clears the error), failed on error. Ending resets the connection
 * but keeps the conversation, closed by the reason, as a remote hang-up does (issue 11: the user
 * who ends the call still wants to read what was said); the next start clears it.
 */
export function useLiveCall(): LiveCall {
  const [status, setStatus] = useState<CallStatus>("disconnected");
  const [error, setError] = useState<unknown>(null);
  const [muted, setMuted] = useState(false);
  const [assistantState, setAssistantState] = useState<AssistantState | null>(null);
  const [lines, setLines] = useState<ChatLine[]>([]);
  const [callId, setCallId] = useState<string | null>(null);
  const [endReason, setEndReason] = useState<string | null>(null);
  const [fault, setFault] = useState<FaultStatus | null>(null);
  const [speaker, setSpeaker] = useState<string | null>(null);
  const socket = useRef<WebSocket | null>(null);
  const audio = useRef<AudioIo | null>(null);
  // What was played survives the audio graph's teardown, for the panel's figures.
  const lastPlayedMs = useRef(0);

  const teardown = useCallback(() => {
    const ws = socket.current;
    socket.current = null;
    if (ws && ws.readyState <= WebSocket.OPEN) {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "hangup" }));
      ws.close(1000);
    }
    void audio.current?.close();
    audio.current = null;
  }, []);

  useEffect(() => teardown, [teardown]);

  const onMessage = useCallback((message: RealtimeServerMessage) => {
    switch (message.type) {
      case "ready":
        setCallId(message.call_id);
        break;
      case "state":
        setAssistantState(message.state);
        // The assistant is heard again: the failure it recovered from is over (one it gave up on stays).
        if (message.state === "speaking") setFault((current) => (current?.final ? current : null));
        break;
      case "fault":
        setFault((current) => (current?.final ? current : faultStatus(message)));
        break;
      case "handoff":
        setSpeaker(message.to);
        break;
      case "transcript":
        setLines((l) => applyTranscript(l, message));
        break;
      case "interruption":
        // The caller barged in: drop what is still queued so the assistant stops at once.
        audio.current?.flush();
        setLines((l) => truncateAssistant(l, message.heard_text));
        break;
      case "end":
        setEndReason(message.reason);
        break;
      case "error":
        setError(new Error(message.message));
        break;
    }
  }, []);

  const start = useCallback(
    async (assistantId: string | undefined, squad?: SquadStart) => {
      teardown();
      setSpeaker(squad?.member ?? null);
      setError(null);
      setLines([]);
      setEndReason(null);
      setFault(null);
      setCallId(null);
      setMuted(false);
      lastPlayedMs.current = 0;
      try {
        const startCall = squad ? squadStart(squad) : callApi.startCall;
        const prepared = await prepareCall(assistantId, {
          ...callApi,
          startCall,
          openMicrophone: () => openMicrophone(),
        });
        setCallId(prepared.callId ?? null);
        setStatus("connecting");
        // Audio first, then the socket with every handler attached at once, so no early event is missed.
        audio.current = await createAudioIo(prepared.microphone, (pcm) => {
          const open = socket.current;
          if (open?.readyState === WebSocket.OPEN) open.send(pcm.buffer);
        }).catch((error: unknown) => {
          for (const track of prepared.microphone.getTracks()) track.stop();
          throw error;
        });
        const ws = new WebSocket(realtimeUrl(prepared.url, prepared.accessToken));
        ws.binaryType = "arraybuffer";
        socket.current = ws;
        ws.onopen = () => {
          setStatus("connected");
          setError(null);
        };
        ws.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
          if (typeof event.data === "string") onMessage(JSON.parse(event.data) as RealtimeServerMessage);
          else audio.current?.play(new Int16Array(event.data));
        };
        ws.onerror = () => setError(new Error("The call connection failed."));
        ws.onclose = (event) => {
          if (socket.current !== ws) return;
          socket.current = null;
          void audio.current?.close();
          audio.current = null;
          setAssistantState(null);
          if (event.code === 1000 || event.code === 1001) setStatus("disconnected");
          else {
            setError((current: unknown) => current ?? new Error(event.reason || "The call ended unexpectedly."));
            setStatus("failed");
          }
        };
      } catch (failure) {
        teardown();
        setError(failure);
        setStatus("failed");
      }
    },
    [onMessage, teardown],
  );

  const end = useCallback(() => {
    teardown();
    setStatus("disconnected");
    setError(null);
    setMuted(false);
    setAssistantState(null);
    setEndReason("caller_hangup");
  }, [teardown]);

  const toggleMute = useCallback(() => {
    setMuted((value) => {
      audio.current?.setMuted(!value);
      if (socket.current?.readyState === WebSocket.OPEN) {
        socket.current.send(JSON.stringify({ type: "mute", muted: !value }));
      }
      return !value;
    });
  }, []);

  const sendText = useCallback((text: string) => {
    const trimmed = text.trim();
    if (!trimmed || socket.current?.readyState !== WebSocket.OPEN) return;
    socket.current.send(JSON.stringify({ type: "text", text: trimmed }));
  }, []);

  const pressKey = useCallback((digit: string) => {
    if (!/^[0-9*#]$/.test(digit) || socket.current?.readyState !== WebSocket.OPEN) return;
    socket.current.send(JSON.stringify({ type: "dtmf", digit }));
  }, []);

  return {
    status,
    error,
    muted,
    assistantState,
    lines,
    callId,
    endReason,
    fault,
    speaker,
    start,
    end,
    toggleMute,
    sendText,
    pressKey,
    levels: () => audio.current?.levels() ?? { microphone: 0, assistant: 0 },
    playedMs: () => {
      if (audio.current) lastPlayedMs.current = audio.current.playedMs();
      return lastPlayedMs.current;
    },
  };
}
