import type { ProviderError } from "../provider-error.ts";
import type { NetworkDeps, ToolCall, ToolSpec } from "../types.ts";
import type { RealtimeUsage } from "./realtime-usage.ts";

/**
 * One conversation with a speech-to-speech model (the Realtime API, the Live API): what the realtime
 * call session drives, whichever vendor answers. It lives beside the vendors' folders (not in
 * `realtime/`) because each vendor's client implements it and the engine's folders may not import
 * each other in a circle.
 */
export interface SpeechModelClient {
  /** The vendor's provider id, for the call's faults. */
  readonly provider: string;
  /** The conversation's tokens by modality so far. */
  readonly totals: RealtimeUsage;
  /** Opens the connection and configures the session; resolves once the vendor confirms it. */
  connect(): Promise<void>;
  /** Caller audio, 16-bit PCM at 16 kHz, any length. */
  appendAudio(pcm: Int16Array): void;
  /** Asks the model to speak now (a greeting, a prompt, a goodbye), following `instructions`. */
  respond(instructions?: string): void;
  /** A typed caller message (chat panel, a key mapped to a meaning), answered like a spoken one. */
  sendText(text: string): void;
  /** The prompt and tools change mid-call (a workflow step, a hand-off); the voice stays. */
  update(change: { instructions: string; tools: ToolSpec[] }): void;
  close(): void;
}

/** What a speech-to-speech client reports while its conversation runs. */
export interface SpeechModelSink {
  /** Assistant audio of item `itemId`: 16 kHz PCM, faster than real time; the listener paces it. */
  onAudio(itemId: string, pcm: Int16Array): void;
  /**
   * The caller started speaking over item `itemId`: stop its playout now and say how many
   * milliseconds of it were played (where the vendor's copy is truncated, when it can be).
   */
  onInterrupted(itemId: string): number;
  /** The assistant item was cut at `audioEndMs` of its audio; `transcript` is its full text as generated. */
  onTruncated?(itemId: string, audioEndMs: number, transcript: string): void;
  /** All audio of item `itemId` has been given to `onAudio`. */
  onAudioDone?(itemId: string): void;
  /** Caller (the vendor's input transcription) or assistant (its output transcript) text. */
  onTranscript(role: "user" | "assistant", text: string, final: boolean, itemId: string): void;
  /** The vendor's turn detection heard the caller start speaking (after any barge-in was handled). */
  onCallerStarted?(): void;
  /**
   * The caller's turn is over and the reply is on the way. `timed` is true when the vendor said
   * so as the speech stopped (its time starts the turn's latency figures), false when it is only
   * known from the reply beginning (no figures can be taken from it).
   */
  onCallerStopped?(timed: boolean): void;
  /** The vendor began a reply on its own (its turn detection answered the caller). */
  onResponseStarted?(responseId: string): void;
  onToolCall?(call: ToolCall, result: ToolOutcome, durationMs: number): void;
  /**
   * A failure: a vendor error event (`fatal` false: the conversation goes on), a message that
   * cannot be read, or the connection lost under a live conversation (`fatal` true).
   */
  onFault(error: ProviderError, fatal: boolean): void;
}

/** What a function the model called gave back, and what the model should do next. */
export interface ToolOutcome {
  ok: boolean;
  /** What the model is given as the function's output. */
  content: string;
  /**
   * What follows the output: by default the model goes on; `instructions` ask it to say something
   * given (a goodbye), and "none" asks nothing (the call is ending).
   */
  followUp?: { instructions: string } | "none";
}

/** What every vendor's client is built from; `settings` are the vendor's own. */
export interface SpeechModelClientOptions<Settings> {
  apiKey: string;
  settings: Settings;
  net: NetworkDeps;
  sink: SpeechModelSink;
  /** Runs a function the model called; without one every call is answered with an error. */
  runTool?: (call: ToolCall, signal: AbortSignal) => Promise<ToolOutcome>;
  /** A test server's origin instead of the vendor's. */
  baseUrl?: string;
  now?: () => number;
}

/** Runs one function call for a client: a failure or a missing runner becomes an output the model is told. */
export async function runToolCall(
  runTool: SpeechModelClientOptions<unknown>["runTool"],
  call: ToolCall,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  try {
    return runTool
      ? await runTool(call, signal)
      : { ok: false, content: `No function named ${call.name} is available.` };
  } catch (error) {
    return { ok: false, content: `The function failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
