import { z } from "zod";
import { ASSISTANT_DEFAULTS, LLM_DEFAULT_CONFIG, sttDefaultConfig, TTS_DEFAULT_CONFIG } from "./assistants.ts";
import { stageField } from "./providers/derive.ts";
import {
  LLM_DESCRIPTORS,
  LlmProviderId,
  STT_DESCRIPTORS,
  SttProviderId,
  TELEPHONY_DESCRIPTORS,
  TTS_DESCRIPTORS,
  TtsProviderId,
} from "./providers/index.ts";
import type { PerMinute, PerToken, TokenPrice } from "./providers/types.ts";

/**
 * List prices (USD) used to estimate what one minute of a call costs, read from the provider
 * descriptors (each vendor's prices live in its own file there). Local providers cost nothing.
 *
 * - STT: per minute of caller audio streamed (the whole call is streamed).
 * - TTS: per minute of call, assuming the assistant speaks about half of it.
 * - LLM: per million input / output tokens.
 */
export const PRICE_TABLE = {
  currency: "USD",
  stt: stageField(STT_DESCRIPTORS, "stt", "price"),
  tts: stageField(TTS_DESCRIPTORS, "tts", "price"),
  llm: stageField(LLM_DESCRIPTORS, "llm", "price"),
  /** Phone calls only (PSTN minute), at the price of the first (default) telephony provider. */
  telephonyPerMinute: TELEPHONY_DESCRIPTORS[0].telephony.pricePerMinute,
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
  llm_provider: LlmProviderId.optional(),
  llm_provider_config: modelOf.optional(),
  stt_provider: SttProviderId.optional(),
  stt_provider_config: modelOf.optional(),
  tts_provider: TtsProviderId.optional(),
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
