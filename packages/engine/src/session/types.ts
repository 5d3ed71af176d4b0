import type { Assistant } from "@parley/contract";
import type { LlmProvider, SttProvider, ToolCall, ToolSpec, TtsProvider } from "../providers/types.ts";

/**
 * The public face of one live call: the server's transports push caller audio, DTMF and typed
 * text in, and receive paced assistant audio and events out. Everything the server needs to
 * persist (transcript, tool calls, turn metrics, recording, end reason) comes through `CallSink`.
 */

export type EndReason =
  | "caller_hangup"
  | "assistant_ended"
  | "end_phrase"
  | "silence_timeout"
  | "max_duration"
  | "transferred"
  | "voicemail"
  | "removed"
  | "error";

export interface TurnMetrics {
  turn: number;
  /** End of caller speech → final transcript. */
  sttMs: number | null;
  /** LLM request → first token. */
  llmTtftMs: number | null;
  /** First sentence to TTS → first audio byte. */
  ttsTtfbMs: number | null;
  /** End of caller speech → first assistant audio frame out. */
  voiceToVoiceMs: number | null;
  /** The engine's own share of voice-to-voice (total minus provider waits). */
  engineOverheadMs: number | null;
}

export type CallEvent =
  | { type: "state"; state: "listening" | "thinking" | "speaking" }
  /** Caller (`user`) or assistant text; partials for the caller while they speak. `atMs` is since call start. */
  | { type: "transcript"; role: "user" | "assistant"; text: string; final: boolean; atMs: number }
  | {
      type: "tool_call";
      name: string;
      arguments: string;
      result: string;
      ok: boolean;
      durationMs: number;
      atMs: number;
    }
  | { type: "turn_metrics"; metrics: TurnMetrics }
  /** The caller barged in; `heardText` is what the assistant's message was truncated to. */
  | { type: "interruption"; heardText: string; atMs: number }
  | { type: "transfer"; destination: { name: string; number: string }; atMs: number }
  | { type: "dtmf_out"; digits: string; atMs: number }
  | { type: "dtmf_in"; digit: string; atMs: number }
  | { type: "provider_fallback"; stage: "stt" | "llm" | "tts"; from: string; to: string; error: string }
  | { type: "error"; message: string }
  | { type: "end"; reason: EndReason; atMs: number };

export interface CallSink {
  onEvent(event: CallEvent): void;
}

export interface ToolResult {
  ok: boolean;
  /** What the model sees (JSON text or plain text). */
  content: string;
}

/** Functions, MCP tools and knowledge search, supplied by the server; built-ins are the engine's own. */
export interface ToolRunner {
  tools(): ToolSpec[];
  run(call: ToolCall, options: { signal: AbortSignal }): Promise<ToolResult>;
}

/** Timers the session uses; tests substitute a virtual clock. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface CallSessionOptions {
  assistant: Assistant;
  stt: SttProvider;
  llm: LlmProvider;
  tts: TtsProvider;
  tools?: ToolRunner;
  sink: CallSink;
  clock?: Clock;
  /** Extra system-prompt context (caller number, channel, …). */
  context?: string;
}

export interface CallSummary {
  reason: EndReason;
  durationMs: number;
  /** Stereo WAV (caller left, assistant right), or null when recording is off, HIPAA or PCI. */
  recording: Buffer | null;
}

export interface CallSession {
  /** Opens providers and, when the assistant speaks first, says the first message. */
  start(): Promise<void>;
  /** Caller audio: 16-bit mono PCM at 16 kHz, any length (the session re-frames it to 20 ms). */
  pushAudio(pcm: Int16Array): void;
  pushDtmf(digit: string): void;
  /** A typed message from the chat panel, handled as a caller turn. */
  pushText(text: string): void;
  /** Assistant audio out: 20 ms frames of 16 kHz PCM, paced in real time. */
  onAudio(listener: (pcm: Int16Array) => void): void;
  /** Ends the call from outside (caller hung up, participant removed). */
  hangup(reason: EndReason): Promise<void>;
  /** Resolves once the call has ended and everything is flushed. */
  readonly done: Promise<CallSummary>;
}
