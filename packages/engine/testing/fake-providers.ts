import type { Clock } from "../src/clock/clock.ts";
import type {
  AudioChunk,
  ChatRequest,
  LlmChunk,
  LlmProvider,
  SttOpenOptions,
  SttProvider,
  SttSession,
  SynthesizeOptions,
  ToolCall,
  TranscriptEvent,
  TtsProvider,
} from "../src/providers/types.ts";
import { sine } from "./signals.ts";

/** Speech-to-text that "hears" the next scripted line whenever the pipeline finalizes an utterance. */
export class ScriptedStt implements SttProvider {
  readonly id = "scripted-stt";
  readonly streaming = false;
  samplesReceived = 0;
  finalizeCalls = 0;
  closed = false;
  private listener: ((event: TranscriptEvent) => void) | null = null;

  constructor(private readonly lines: string[] = []) {}

  async open(options: SttOpenOptions): Promise<SttSession> {
    this.listener = options.onTranscript;
    return {
      sendAudio: (pcm) => {
        this.samplesReceived += pcm.length;
      },
      finalize: () => {
        this.finalizeCalls++;
        const text = this.lines.shift();
        if (text !== undefined) queueMicrotask(() => this.emit({ type: "final", text }));
      },
      close: async () => {
        this.closed = true;
      },
    };
  }

  /** Pushes a transcript event as if the provider had sent it. */
  emit(event: TranscriptEvent): void {
    this.listener?.(event);
  }
}

export type ScriptedReply = string | LlmChunk[] | ((request: ChatRequest) => string | LlmChunk[]);

/** A language model that answers from a script, word by word, optionally slowly, and honours aborts. */
export class ScriptedLlm implements LlmProvider {
  readonly id = "scripted-llm";
  readonly model = "scripted";
  /** Every request, with a copy of its messages as they were sent. */
  readonly requests: ChatRequest[] = [];
  aborted = 0;

  constructor(
    private readonly replies: ScriptedReply[] = [],
    private readonly options: { fallback?: ScriptedReply; clock?: Clock; tokenDelayMs?: number } = {},
  ) {}

  async *chat(request: ChatRequest): AsyncIterable<LlmChunk> {
    this.requests.push({ ...request, messages: request.messages.map((m) => ({ ...m })) });
    const reply = this.replies.shift() ?? this.options.fallback ?? "";
    const resolved = typeof reply === "function" ? reply(request) : reply;
    const chunks: LlmChunk[] =
      typeof resolved === "string"
        ? (resolved.match(/\S+\s*/g) ?? []).map((text) => ({ type: "text", text }))
        : resolved;
    for (const chunk of chunks) {
      if (this.options.tokenDelayMs && this.options.clock) await sleep(this.options.clock, this.options.tokenDelayMs);
      if (request.signal?.aborted) {
        this.aborted++;
        return;
      }
      yield chunk;
    }
  }
}

/** A tool-call chunk for scripted replies. */
export function toolCall(name: string, args: Record<string, unknown> = {}, id = `call_${name}`): LlmChunk {
  const call: ToolCall = { id, name, arguments: JSON.stringify(args) };
  return { type: "tool_call", call };
}

/**
 * Text-to-speech that renders each word as `msPerWord` of a quiet tone, in chunks, at a rate of
 * its choosing (24 kHz by default, so the pipeline's resampling is exercised).
 */
export class FakeTts implements TtsProvider {
  readonly id = "fake-tts";
  readonly model = "tone";
  readonly voice = "a";
  readonly texts: string[] = [];

  constructor(private readonly options: { msPerWord?: number; sampleRate?: number; chunkMs?: number } = {}) {}

  async *synthesize(text: string, options?: SynthesizeOptions): AsyncIterable<AudioChunk> {
    this.texts.push(text);
    const rate = this.options.sampleRate ?? 24_000;
    const words = text.split(/\s+/).filter(Boolean).length;
    const audio = tone(words * (this.options.msPerWord ?? 200), rate);
    const chunk = Math.round(((this.options.chunkMs ?? 100) / 1000) * rate);
    for (let i = 0; i < audio.length; i += chunk) {
      await Promise.resolve();
      if (options?.signal?.aborted) return;
      yield { pcm: audio.slice(i, i + chunk), sampleRate: rate };
    }
  }
}

/**
 * The voice's tone, computed once per length and rate: what a bench measures is Parley handling
 * the audio (a real voice's arrives over the network), not this double computing sines.
 */
const tones = new Map<string, Int16Array>();

function tone(ms: number, rate: number): Int16Array {
  const key = `${ms}:${rate}`;
  let audio = tones.get(key);
  if (!audio) {
    audio = sine(220, ms, rate, 0.2);
    tones.set(key, audio);
  }
  return audio;
}

function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}
