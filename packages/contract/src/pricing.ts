import { z } from "zod";
import {
  ASSISTANT_DEFAULTS,
  LLM_DEFAULT_CONFIG,
  type LlmProviderId,
  LlmProviderId as LlmProviderIdSchema,
  type SttProviderId,
  SttProviderId as SttProviderIdSchema,
  sttDefaultConfig,
  TTS_DEFAULT_CONFIG,
  type TtsProviderId,
  TtsProviderId as TtsProviderIdSchema,
} from "./assistants.ts";

/**
 * List prices (USD) used to estimate what one minute of a call costs. Vendors change prices;
 * this table is the single place to update them. Local providers cost nothing.
 *
 * - STT: per minute of caller audio streamed (the whole call is streamed).
 * - TTS: per minute of call, assuming the assistant speaks about half of it.
 * - LLM: per million input / output tokens.
 */
interface PerMinute {
  default: number;
  models?: Record<string, number>;
}
interface TokenPrice {
  input: number;
  output: number;
}
interface PerToken {
  default: TokenPrice;
  models?: Record<string, TokenPrice>;
}

const OPENAI_LLM: Record<string, TokenPrice> = {
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  "gpt-4o": { input: 2.5, output: 10 },
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4 },
  "gpt-5": { input: 1.25, output: 10 },
  "gpt-5-mini": { input: 0.25, output: 2 },
  "gpt-5-nano": { input: 0.05, output: 0.4 },
};

export const PRICE_TABLE = {
  currency: "USD",
  stt: {
    deepgram: { default: 0.0077, models: { "nova-3": 0.0077, "nova-2": 0.0058, "nova-2-phonecall": 0.0058 } },
    openai: {
      default: 0.003,
      models: { "gpt-4o-mini-transcribe": 0.003, "gpt-4o-transcribe": 0.006, "whisper-1": 0.006 },
    },
    groq: {
      default: 0.00067,
      models: { "whisper-large-v3-turbo": 0.00067, "whisper-large-v3": 0.00185, "distil-whisper-large-v3-en": 0.00033 },
    },
    "assembly-ai": { default: 0.0025 },
    speechmatics: { default: 0.0125 },
    hamsa: { default: 0.01 },
    local: { default: 0 },
  } satisfies Record<SttProviderId, PerMinute>,
  tts: {
    openai: { default: 0.0075, models: { "tts-1": 0.0075, "tts-1-hd": 0.015, "gpt-4o-mini-tts": 0.0075 } },
    playht: { default: 0.03 },
    cartesia: { default: 0.02 },
    elevenlabs: {
      default: 0.03,
      models: { eleven_flash_v2_5: 0.03, eleven_turbo_v2_5: 0.03, eleven_multilingual_v2: 0.06 },
    },
    deepgram: { default: 0.0135, models: { "aura-2": 0.0135, aura: 0.0068 } },
    "rime-ai": { default: 0.015 },
    neuphonic: { default: 0.01 },
    local: { default: 0 },
  } satisfies Record<TtsProviderId, PerMinute>,
  llm: {
    openai: { default: { input: 0.15, output: 0.6 }, models: OPENAI_LLM },
    "azure-openai": { default: { input: 0.15, output: 0.6 }, models: OPENAI_LLM },
    anthropic: {
      default: { input: 3, output: 15 },
      models: {
        "claude-sonnet-4-5": { input: 3, output: 15 },
        "claude-sonnet-4-0": { input: 3, output: 15 },
        "claude-haiku-4-5": { input: 1, output: 5 },
        "claude-opus-4-1": { input: 15, output: 75 },
        "claude-3-5-haiku-latest": { input: 0.8, output: 4 },
      },
    },
    google: {
      default: { input: 0.3, output: 2.5 },
      models: {
        "gemini-2.5-flash": { input: 0.3, output: 2.5 },
        "gemini-2.5-flash-lite": { input: 0.1, output: 0.4 },
        "gemini-2.5-pro": { input: 1.25, output: 10 },
        "gemini-2.0-flash": { input: 0.1, output: 0.4 },
      },
    },
    groq: {
      default: { input: 0.59, output: 0.79 },
      models: {
        "llama-3.3-70b-versatile": { input: 0.59, output: 0.79 },
        "llama-3.1-8b-instant": { input: 0.05, output: 0.08 },
        "openai/gpt-oss-120b": { input: 0.15, output: 0.75 },
        "openai/gpt-oss-20b": { input: 0.1, output: 0.5 },
        "meta-llama/llama-4-scout-17b-16e-instruct": { input: 0.11, output: 0.34 },
        "qwen/qwen3-32b": { input: 0.29, output: 0.59 },
      },
    },
    deepseek: { default: { input: 0.28, output: 0.42 } },
    mistral: {
      default: { input: 0.1, output: 0.3 },
      models: {
        "mistral-small-latest": { input: 0.1, output: 0.3 },
        "mistral-medium-latest": { input: 0.4, output: 2 },
        "mistral-large-latest": { input: 2, output: 6 },
        "ministral-8b-latest": { input: 0.1, output: 0.1 },
      },
    },
    openrouter: {
      default: { input: 0.15, output: 0.6 },
      models: {
        "anthropic/claude-sonnet-4.5": { input: 3, output: 15 },
        "google/gemini-2.5-flash": { input: 0.3, output: 2.5 },
        "meta-llama/llama-3.3-70b-instruct": { input: 0.13, output: 0.4 },
        "deepseek/deepseek-chat": { input: 0.28, output: 0.42 },
      },
    },
    "openai-compatible": { default: { input: 0, output: 0 } },
  } satisfies Record<LlmProviderId, PerToken>,
  /** Phone calls only (PSTN minute through the telephony provider). */
  telephonyPerMinute: 0.014,
  /** A self-hosted Parley charges no platform fee. */
  platformFeePerMinute: 0,
} as const;

/** Conversation shape the LLM estimate assumes: turns per minute and tokens per turn. */
export const COST_ASSUMPTIONS = {
  turnsPerMinute: 4,
  historyTokensPerTurn: 350,
  outputTokensPerTurn: 40,
  defaultPromptTokens: 200,
  charsPerToken: 4,
} as const;

const modelOf = z.object({ model: z.string().optional() }).partial();

/** The part of an assistant configuration the estimate reads (POST /agents/calculate-cost-per-minute). */
export const CostPerMinuteBody = z.object({
  llm_provider: LlmProviderIdSchema.optional(),
  llm_provider_config: modelOf.optional(),
  stt_provider: SttProviderIdSchema.optional(),
  stt_provider_config: modelOf.optional(),
  tts_provider: TtsProviderIdSchema.optional(),
  tts_provider_config: modelOf.optional(),
  system_prompt: z.string().max(20000).optional(),
  /** Estimate a phone call (adds telephony) rather than a browser call. */
  telephony: z.boolean().optional(),
});
export type CostPerMinuteBody = z.input<typeof CostPerMinuteBody>;

export const CostBreakdown = z.object({
  total: z.number(),
  currency: z.literal("USD"),
  breakdown: z.object({
    stt: z.number(),
    llm: z.number(),
    tts: z.number(),
    telephony: z.number(),
    platform: z.number(),
  }),
  assumptions: z.object({
    llm_input_tokens_per_minute: z.number(),
    llm_output_tokens_per_minute: z.number(),
  }),
});
export type CostBreakdown = z.infer<typeof CostBreakdown>;

const round = (n: number) => Math.round(n * 1e6) / 1e6;

function perMinute(table: PerMinute, model: string | undefined): number {
  return (model !== undefined ? table.models?.[model] : undefined) ?? table.default;
}

function tokenPrice(table: PerToken, model: string | undefined): TokenPrice {
  return (model !== undefined ? table.models?.[model] : undefined) ?? table.default;
}

/** Estimated USD cost of one minute of a call with this configuration, by pipeline stage. */
export function costPerMinute(config: CostPerMinuteBody, options: { telephony?: boolean } = {}): CostBreakdown {
  const llmProvider = config.llm_provider ?? ASSISTANT_DEFAULTS.llm_provider;
  const sttProvider = config.stt_provider ?? ASSISTANT_DEFAULTS.stt_provider;
  const ttsProvider = config.tts_provider ?? ASSISTANT_DEFAULTS.tts_provider;
  const llmModel = config.llm_provider_config?.model ?? LLM_DEFAULT_CONFIG[llmProvider].model;
  const sttModel = config.stt_provider_config?.model ?? String(sttDefaultConfig(sttProvider).model);
  const ttsModel = config.tts_provider_config?.model ?? TTS_DEFAULT_CONFIG[ttsProvider].model;

  const a = COST_ASSUMPTIONS;
  const promptTokens = config.system_prompt
    ? Math.ceil(config.system_prompt.length / a.charsPerToken)
    : a.defaultPromptTokens;
  const inputTokens = a.turnsPerMinute * (promptTokens + a.historyTokensPerTurn);
  const outputTokens = a.turnsPerMinute * a.outputTokensPerTurn;
  const price = tokenPrice(PRICE_TABLE.llm[llmProvider], llmModel);

  const breakdown = {
    stt: round(perMinute(PRICE_TABLE.stt[sttProvider], sttModel)),
    llm: round((inputTokens * price.input + outputTokens * price.output) / 1_000_000),
    tts: round(perMinute(PRICE_TABLE.tts[ttsProvider], ttsModel)),
    telephony: (options.telephony ?? config.telephony) ? PRICE_TABLE.telephonyPerMinute : 0,
    platform: PRICE_TABLE.platformFeePerMinute,
  };
  const total = round(breakdown.stt + breakdown.llm + breakdown.tts + breakdown.telephony + breakdown.platform);
  return {
    total,
    currency: "USD",
    breakdown,
    assumptions: { llm_input_tokens_per_minute: inputTokens, llm_output_tokens_per_minute: outputTokens },
  };
}
