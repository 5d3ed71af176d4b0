import { z } from "zod";
import { REALTIME_DESCRIPTORS, type RealtimeProviderId } from "./providers/index.ts";
import type { RealtimeStage, RealtimeTokenPrice } from "./providers/types.ts";

/**
 * An assistant's speech-to-speech model (issue 32): which vendor and model hears the caller and
 * answers in audio, its voice, how it decides the caller's turn ended, and how the caller is
 * transcribed for the call log. Used when the assistant's `engine_mode` is "realtime"; the pipeline
 * fields (transcriber, model, voice) stay as they are, the fallback when the model cannot connect.
 */

/** How the assistant runs its calls: transcriber → model → voice, or one speech-to-speech model. */
export const EngineMode = z.enum(["pipeline", "realtime"]);
export type EngineMode = z.infer<typeof EngineMode>;

/** The Realtime API's turn detection: silence after speech (server_vad) or a model judging the caller finished (semantic_vad). */
export const OpenAiRealtimeTurnDetection = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("server_vad"),
    /** 0–1; higher needs louder speech to count as the caller speaking. */
    threshold: z.number().min(0).max(1).default(0.5),
    prefix_padding_ms: z.number().int().min(0).max(2000).default(300),
    silence_duration_ms: z.number().int().min(100).max(5000).default(500),
  }),
  z.object({
    type: z.literal("semantic_vad"),
    eagerness: z.enum(["low", "medium", "high", "auto"]).default("auto"),
  }),
]);
export type OpenAiRealtimeTurnDetection = z.infer<typeof OpenAiRealtimeTurnDetection>;

export const OpenAiRealtimeConfig = z.object({
  provider: z.literal("openai-realtime"),
  model: z.string().trim().min(1).max(100).default("gpt-realtime"),
  voice: z.string().trim().min(1).max(100).default("marin"),
  turn_detection: OpenAiRealtimeTurnDetection.default({ type: "semantic_vad", eagerness: "auto" }),
  /** The model that transcribes the caller for the call log; null: no caller transcript. */
  transcription_model: z.string().trim().min(1).max(100).nullable().default("gpt-4o-mini-transcribe"),
  /** The caller's language (ISO 639-1) as a hint to the transcriber; null: detected. */
  language: z.string().trim().min(2).max(20).nullable().default(null),
});

/** Gemini's automatic activity detection; omitted fields take the vendor's defaults. */
export const GeminiLiveTurnDetection = z.object({
  start_sensitivity: z.enum(["high", "low"]).nullable().default(null),
  end_sensitivity: z.enum(["high", "low"]).nullable().default(null),
  prefix_padding_ms: z.number().int().min(0).max(2000).nullable().default(null),
  silence_duration_ms: z.number().int().min(100).max(5000).nullable().default(null),
});
export type GeminiLiveTurnDetection = z.infer<typeof GeminiLiveTurnDetection>;

export const GeminiLiveConfig = z.object({
  provider: z.literal("gemini-live"),
  model: z.string().trim().min(1).max(100).default("gemini-2.5-flash-native-audio-preview-12-2025"),
  voice: z.string().trim().min(1).max(100).default("Puck"),
  turn_detection: GeminiLiveTurnDetection.default(() => GeminiLiveTurnDetection.parse({})),
  /** Transcribe the caller's words (the model's own transcription) for the call log. */
  input_transcription: z.boolean().default(true),
  /** BCP-47 (e.g. `en-US`); null: the native-audio model picks the language itself. */
  language: z.string().trim().min(2).max(20).nullable().default(null),
});

export const RealtimeConfig = z.discriminatedUnion("provider", [OpenAiRealtimeConfig, GeminiLiveConfig]);
export type RealtimeConfig = z.infer<typeof RealtimeConfig>;

/** A provider's full default configuration (what a provider change in the editor resets to). */
export function realtimeDefaultConfig(provider: RealtimeProviderId): RealtimeConfig {
  return RealtimeConfig.parse({ provider });
}

export const REALTIME_DEFAULT_CONFIG: RealtimeConfig = realtimeDefaultConfig(REALTIME_DESCRIPTORS[0].realtime.id);

function vendorOf(provider: RealtimeProviderId) {
  const found = REALTIME_DESCRIPTORS.find((d) => d.realtime.id === provider);
  if (!found) throw new Error(`Unknown realtime provider ${provider}`);
  return found;
}

/** The descriptor stage of a realtime provider. */
export function realtimeStage(provider: RealtimeProviderId): RealtimeStage {
  return vendorOf(provider).realtime;
}

/** The vendor whose integration key (the workspace's, else the server's) a realtime provider is reached with. */
export function realtimeIntegration(provider: RealtimeProviderId): string {
  return vendorOf(provider).id;
}

/** The list prices of a realtime model (its provider's default for a model it does not list). */
export function realtimePrice(provider: RealtimeProviderId, model: string): RealtimeTokenPrice {
  const price: RealtimeStage["price"] = realtimeStage(provider).price;
  return price.models?.[model] ?? price.default;
}

/** A call's tokens on a realtime model, by modality, as the vendor's usage events report them. */
export const RealtimeTokens = z.object({
  input_text: z.number(),
  input_audio: z.number(),
  /** Part of the input the vendor served from its cache (billed at the cached price instead). */
  cached_input: z.number(),
  output_text: z.number(),
  output_audio: z.number(),
});
export type RealtimeTokens = z.infer<typeof RealtimeTokens>;

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * What a call's tokens cost at the model's list prices (USD). Cached tokens are counted inside the
 * input totals by the vendor, so they move from the input price to the cached price: audio first,
 * as a realtime conversation's context is mostly the audio heard so far.
 */
export function realtimeTokenCost(
  price: RealtimeTokenPrice,
  tokens: RealtimeTokens,
): { input: number; output: number } {
  const cachedAudio = Math.min(tokens.cached_input, tokens.input_audio);
  const cachedText = Math.min(tokens.cached_input - cachedAudio, tokens.input_text);
  const input =
    (tokens.input_audio - cachedAudio) * price.audioInput +
    (tokens.input_text - cachedText) * price.textInput +
    (cachedAudio + cachedText) * price.cachedInput;
  const output = tokens.output_audio * price.audioOutput + tokens.output_text * price.textOutput;
  return { input: round(input / 1_000_000), output: round(output / 1_000_000) };
}

/** What the per-minute estimate of a realtime model assumes. */
export const REALTIME_COST_ASSUMPTIONS = {
  /** Share of a minute the caller speaks, and the share the model speaks. */
  callerTalkShare: 0.5,
  assistantTalkShare: 0.5,
  /** Turns a minute; each re-reads the prompt (cached after the first) and the audio heard so far. */
  turnsPerMinute: 4,
  defaultPromptTokens: 200,
  charsPerToken: 4,
} as const;

/**
 * Estimated USD for one minute of a realtime call: the caller's and the model's audio at their
 * talk shares, the prompt read on each turn at the cached price, and the minute's audio read
 * again on each later turn at the cached price (the vendor re-reads the conversation per reply).
 */
export function realtimeCostPerMinute(config: { provider: RealtimeProviderId; model: string }, systemPrompt?: string) {
  const stage = realtimeStage(config.provider);
  const a = REALTIME_COST_ASSUMPTIONS;
  const promptTokens = systemPrompt ? Math.ceil(systemPrompt.length / a.charsPerToken) : a.defaultPromptTokens;
  const callerAudio = stage.audioTokensPerMinute.input * a.callerTalkShare;
  const modelAudio = stage.audioTokensPerMinute.output * a.assistantTalkShare;
  // Each turn re-reads what was said before it: on average half the minute's audio, from the cache.
  const reread = (a.turnsPerMinute - 1) * ((callerAudio + modelAudio) / 2);
  const tokens: RealtimeTokens = {
    input_text: promptTokens * a.turnsPerMinute,
    input_audio: callerAudio + reread,
    cached_input: reread + promptTokens * (a.turnsPerMinute - 1),
    output_text: 0,
    output_audio: modelAudio,
  };
  const cost = realtimeTokenCost(realtimePrice(config.provider, config.model), tokens);
  return { total: round(cost.input + cost.output), input: cost.input, output: cost.output, tokens };
}
