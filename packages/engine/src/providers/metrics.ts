import type { AudioChunk, ChatRequest, LlmChunk, LlmProvider, SynthesizeOptions, TtsProvider } from "./types.ts";

/** How one language-model request went. */
export interface LlmRequestMetric {
  stage: "llm";
  provider: string;
  model: string;
  /** Request → first text or tool call; null when none came. */
  ttftMs: number | null;
  durationMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
  /** "ok", "cancelled" (the consumer stopped early or aborted) or "error". */
  outcome: "ok" | "cancelled" | "error";
  error?: string;
}

/** How one synthesis request went. */
export interface TtsRequestMetric {
  stage: "tts";
  provider: string;
  model: string;
  voice: string;
  /** Request → first audio; null when none came. */
  ttfbMs: number | null;
  durationMs: number;
  /** Length of the audio produced. */
  audioMs: number;
  characters: number;
  outcome: "ok" | "cancelled" | "error";
  error?: string;
}

type Now = () => number;
const monotonic: Now = () => performance.now();

/** Wraps a language model so every request reports its time to first token, duration and usage. */
export function instrumentLlm(
  provider: LlmProvider,
  onMetric: (metric: LlmRequestMetric) => void,
  now: Now = monotonic,
): LlmProvider {
  return {
    get id() {
      return provider.id;
    },
    get model() {
      return provider.model;
    },
    async *chat(request: ChatRequest): AsyncIterable<LlmChunk> {
      const started = now();
      let first: number | null = null;
      let usage: { inputTokens: number; outputTokens: number } | null = null;
      let outcome: LlmRequestMetric["outcome"] = "cancelled";
      let error: string | undefined;
      try {
        for await (const chunk of provider.chat(request)) {
          if (chunk.type === "usage") usage = chunk;
          else if (first === null) first = now();
          yield chunk;
        }
        outcome = "ok";
      } catch (failure) {
        outcome = request.signal?.aborted ? "cancelled" : "error";
        error = failure instanceof Error ? failure.message : String(failure);
        throw failure;
      } finally {
        onMetric({
          stage: "llm",
          provider: provider.id,
          model: provider.model,
          ttftMs: first === null ? null : first - started,
          durationMs: now() - started,
          inputTokens: usage?.inputTokens ?? null,
          outputTokens: usage?.outputTokens ?? null,
          outcome,
          ...(error ? { error } : {}),
        });
      }
    },
  };
}

/** Wraps a voice so every synthesis reports its time to first audio, duration and audio length. */
export function instrumentTts(
  provider: TtsProvider,
  onMetric: (metric: TtsRequestMetric) => void,
  now: Now = monotonic,
): TtsProvider {
  return {
    get id() {
      return provider.id;
    },
    get model() {
      return provider.model;
    },
    get voice() {
      return provider.voice;
    },
    async *synthesize(text: string, options?: SynthesizeOptions): AsyncIterable<AudioChunk> {
      const started = now();
      let first: number | null = null;
      let audioMs = 0;
      let outcome: TtsRequestMetric["outcome"] = "cancelled";
      let error: string | undefined;
      try {
        for await (const chunk of provider.synthesize(text, options)) {
          if (first === null) first = now();
          audioMs += (chunk.pcm.length / chunk.sampleRate) * 1000;
          yield chunk;
        }
        outcome = "ok";
      } catch (failure) {
        outcome = options?.signal?.aborted ? "cancelled" : "error";
        error = failure instanceof Error ? failure.message : String(failure);
        throw failure;
      } finally {
        onMetric({
          stage: "tts",
          provider: provider.id,
          model: provider.model,
          voice: provider.voice,
          ttfbMs: first === null ? null : first - started,
          durationMs: now() - started,
          audioMs: Math.round(audioMs),
          characters: text.length,
          outcome,
          ...(error ? { error } : {}),
        });
      }
    },
  };
}
