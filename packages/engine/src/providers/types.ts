/**
 * The three provider stages the pipeline drives (speech-to-text, language model, text-to-speech).
 * Each cloud or local provider implements one of these on a stage base (stage-bases.ts), which owns
 * its retry policy; the fallback adapters chain different providers of one stage. Audio crossing
 * these interfaces is 16-bit mono PCM (`Int16Array`).
 */

/** What a provider adapter needs to reach the network; the server passes its SSRF-safe variants. */
export interface NetworkDeps {
  fetch: typeof fetch;
  /** Opens a WebSocket (the `ws` package's client by default); headers carry vendor auth. */
  openWebSocket?: (url: string, options: { headers?: Record<string, string>; protocols?: string[] }) => WebSocketLike;
}

/** The part of a WebSocket the adapters use (satisfied by the `ws` package and the WHATWG WebSocket). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string | ArrayBufferLike | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: (event: { code: number; reason: string }) => void): void;
  addEventListener(type: "error", listener: (event: unknown) => void): void;
}

// ── speech-to-text ───────────────────────────────────────────────────────────

export type TranscriptEvent =
  | { type: "partial"; text: string }
  | { type: "final"; text: string; confidence?: number; language?: string }
  /**
   * The utterance is closed. `endOfTurn` is true when the vendor's own endpointing judged the caller's
   * turn over (an end-of-turn or speech-final message), not merely answered a `finalize()`.
   */
  | { type: "utterance_end"; endOfTurn?: boolean };

/** What one recognition stream reports to; the language and the rest come with the provider's config. */
export interface SttOpenOptions {
  onTranscript(event: TranscriptEvent): void;
  /** A failure after open (socket dropped for good, vendor error message). */
  onError(error: Error): void;
  signal?: AbortSignal;
}

/** One open recognition stream for one call. */
export interface SttSession {
  /** Caller audio, 16-bit mono PCM at 16 kHz, in frame-sized pieces. */
  sendAudio(pcm: Int16Array): void;
  /** The caller stopped speaking (VAD): finalize what has been heard so far. */
  finalize(): void;
  close(): Promise<void>;
  /** Re-opens a session the call judged broken (a recogniser chain has it; others do not). */
  restart?(error: Error): void;
}

export interface SttProvider {
  readonly id: string;
  /** True when partial transcripts arrive while the caller speaks. */
  readonly streaming: boolean;
  /** False when transcripts carry no punctuation: end of turn then cannot read a finished sentence. */
  readonly punctuates?: boolean;
  open(options: SttOpenOptions): Promise<SttSession>;
}

// ── language model ──────────────────────────────────────────────────────────

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text of the arguments, as the model produced it. */
  arguments: string;
}

export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

export type LlmChunk =
  | { type: "text"; text: string }
  /** A complete tool call, emitted once its streamed arguments are whole. */
  | { type: "tool_call"; call: ToolCall }
  | { type: "usage"; inputTokens: number; outputTokens: number };

export interface LlmProvider {
  readonly id: string;
  readonly model: string;
  /** Streams one completion; aborting `signal` stops it. */
  chat(request: ChatRequest): AsyncIterable<LlmChunk>;
}

// ── text-to-speech ──────────────────────────────────────────────────────────

export interface AudioChunk {
  /** 16-bit mono PCM. */
  pcm: Int16Array;
  /** Sample rate of `pcm`; the pipeline resamples to 16 kHz. */
  sampleRate: number;
}

export interface SynthesizeOptions {
  signal?: AbortSignal;
}

export interface TtsProvider {
  readonly id: string;
  readonly model: string;
  readonly voice: string;
  /** Streams the audio of one piece of text (a sentence or so) as it is produced. */
  synthesize(text: string, options?: SynthesizeOptions): AsyncIterable<AudioChunk>;
}
