import type { FaultAction, FaultKind, FaultStage } from "@parley/contract";
import type { Clock } from "../clock/clock.ts";
import type { EndReason } from "../frames/frames.ts";
import type { ChatMessage, LlmProvider, SttProvider, ToolCall, ToolSpec, TtsProvider } from "../providers/types.ts";
import type { WorkflowRunner } from "../workflow/workflow-runner.ts";
import type { CallSettings } from "./call-settings.ts";
import type { EndOfTurnRule } from "./end-of-turn.ts";
import type { RecordingSink } from "./recorder.ts";

export type { Clock, EndReason };

/**
 * The public face of one live call: the server's transports push caller audio, DTMF and typed
 * text in, and receive paced assistant audio and events out. Everything the server needs to
 * persist (transcript, tool calls, turn metrics, recording, end reason) comes through `CallSink`.
 */

export interface TurnMetrics {
  turn: number;
  /** Which end-of-turn rule ended the caller's turn; null for typed text and keys. */
  endOfTurnRule: EndOfTurnRule | null;
  /** The end-of-turn rule's own wait: the later of end of speech and final words → turn over. */
  endOfTurnWaitMs: number | null;
  /** End of caller speech → final transcript. */
  sttMs: number | null;
  /** LLM request → first token. */
  llmTtftMs: number | null;
  /** First sentence to TTS → first audio byte. */
  ttsTtfbMs: number | null;
  /**
   * End of caller speech (the last voiced audio, before any pause or wait, however late the words
   * came) → the first audible assistant frame handed to the transport: what the caller waited.
   */
  voiceToVoiceMs: number | null;
  /** The engine's own share of voice-to-voice (total minus provider waits). */
  engineOverheadMs: number | null;
}

export type CallEvent =
  | { type: "state"; state: "listening" | "thinking" | "speaking" }
  /**
   * Caller (`user`) or assistant text. Partials: the caller's words so far while they speak; the
   * assistant's reply so far each time one of its sentences starts playing. `atMs` is since call start.
   */
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
  /** A stage failed; `action` says what the call did about it (fault-policy.ts). */
  | ({ type: "fault" } & CallFault)
  /** A tool call of a reply the caller cut short before it was heard: not run. */
  | { type: "tool_skipped"; name: string; reason: string; atMs: number }
  /**
   * The call passed from one assistant to another (a squad's hand-off): `from` and `to` are the
   * members' names, `reason` the one the handing-off model gave; the next assistant speaks from here.
   */
  | { type: "handoff"; from: string; to: string; reason: string; atMs: number }
  | { type: "error"; message: string }
  | { type: "end"; reason: EndReason; atMs: number };

/** One failure of a stage and what the call did about it; the error is redacted. */
export interface CallFault {
  stage: FaultStage;
  provider: string;
  kind: FaultKind;
  action: FaultAction;
  error: string;
  atMs: number;
}

export interface CallSink {
  onEvent(event: CallEvent): void;
}

export interface ToolResult {
  ok: boolean;
  /** What the model sees (JSON text or plain text). */
  content: string;
  /** Why a failed tool failed, when the runner knows: its fault for the call's log. */
  fault?: { kind: FaultKind; error: string; provider?: string };
}

/** Functions, MCP tools and knowledge search, supplied by the server; built-ins are the engine's own. */
export interface ToolRunner {
  tools(): ToolSpec[];
  /**
   * Runs one call. `idempotencyKey` is the same for every attempt of this tool call (sent to a
   * webhook so a retried request is not done twice); `signal` aborts at barge-in or the tool timeout.
   */
  run(call: ToolCall, options: { signal: AbortSignal; idempotencyKey: string }): Promise<ToolResult>;
}

export interface CallSessionOptions {
  /** The assistant's settings for this call (`callSettingsOf`); the providers are built from them. */
  settings: CallSettings;
  stt: SttProvider;
  llm: LlmProvider;
  tts: TtsProvider;
  /**
   * Backups per stage, tried in order after the main provider (the fault policy's chains); a
   * voice's last resort (the offline voice) goes last.
   */
  fallbacks?: { stt?: SttProvider[]; llm?: LlmProvider[]; tts?: TtsProvider[] };
  /** Unique per call: tool calls' idempotency keys start with it. */
  callId?: string;
  tools?: ToolRunner;
  sink: CallSink;
  clock?: Clock;
  /** Extra system-prompt context (caller number, channel, …). */
  context?: string;
  /**
   * Where the recording streams as the call runs (a file, object storage); without one it is held
   * in memory and returned in the summary. Unused when the assistant does not record.
   */
  recording?: RecordingSink;
  /**
   * The assistant's published workflow, when it has one: its start node's greeting replaces the
   * first message, its active step sets the prompt, and it advances after every caller turn.
   */
  workflow?: WorkflowRunner;
  /**
   * The caller's audio is a real-time stream (a socket, RTP): each chunk is dated by its place in
   * the stream, so audio that queued while the event loop was busy keeps the time it arrived and
   * the caller's wait is not shortened by it. Off, a chunk is dated when it is pushed (tests that
   * push audio faster than real time).
   */
  streamedCallerAudio?: boolean;
  /**
   * The sample rate of the caller's line when narrower than the engine's 16 kHz (8000 on a G.711
   * phone line): the reply counts as heard from the first frame audible on that line.
   */
  lineRate?: number;
  /** The assistants this one may hand the call to (a squad's member); none: no hand-off tools. */
  handoffs?: Handoffs;
}

/**
 * What one assistant brings to a call: its settings, providers, tools, context and workflow. A
 * call starts with one (`CallSessionOptions`) and a hand-off switches to another.
 */
export type AssistantParts = Pick<
  CallSessionOptions,
  "settings" | "llm" | "tts" | "fallbacks" | "tools" | "context" | "workflow" | "handoffs"
> & {
  /** The next assistant's recogniser, only when it differs from the one listening: it replaces it. */
  stt?: SttProvider;
};

/** Another assistant the current one may hand the call to; its tool is `handoff_to_<name>`. */
export interface HandoffTarget {
  name: string;
  /** When to hand off: the tool's description, which the model reads to decide. */
  description: string;
}

/** A hand-off under way: the next assistant and the conversation it starts from. */
export interface AssistantSwitch {
  /** The members' names, for the call's events. */
  from: string;
  to: string;
  reason: string;
  next: AssistantParts;
  /**
   * The conversation the next assistant is given (the carried transcript, or a caller line under
   * a summary); the hand-off's own tool call is never part of it.
   */
  history: ChatMessage[];
}

/** The answer to a hand-off request: refused (the model hears why), or accepted with its bridge line. */
export type HandoffAnswer =
  | { refused: string }
  | {
      /** Said by the handing-off assistant while the next one is prepared; null: nothing is said. */
      bridgeLine: string | null;
      /** The next assistant, ready to take over (its providers built, the context carried). */
      next: Promise<AssistantSwitch>;
    };

/** The hand-offs the current assistant may make, supplied by the server (a squad). */
export interface Handoffs {
  targets: HandoffTarget[];
  /**
   * The model asked to hand off to `target`: decide at once (the call's hand-off limit, a target
   * that is gone), then prepare the next assistant from the conversation so far.
   */
  request(target: string, reason: string, history: readonly ChatMessage[]): HandoffAnswer;
}

export interface CallSummary {
  reason: EndReason;
  /** Every fault of the call, in order (empty for a call whose providers all held). */
  faults: CallFault[];
  durationMs: number;
  /** Stereo WAV (caller left, assistant right); null when recording is off (HIPAA, PCI) or was streamed. */
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
  /**
   * Hands the call to another assistant at the next turn boundary (after what is being said):
   * its prompt, tools, model, voice and, when different, transcriber take over without the audio
   * stopping, and it answers from `history`. Resolves once it has taken over.
   */
  switchAssistant(change: AssistantSwitch): Promise<void>;
  /** Ends the call from outside (caller hung up, participant removed). */
  hangup(reason: EndReason): Promise<void>;
  /** Resolves once the call has ended and everything is flushed. */
  readonly done: Promise<CallSummary>;
}
