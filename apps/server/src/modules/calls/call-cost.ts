import {
  type Assistant,
  type CallCostBreakdown,
  LLM_DEFAULT_CONFIG,
  type PerMinute,
  type PerToken,
  PRICE_TABLE,
  sttDefaultConfig,
  TTS_CHARACTERS_PER_PRICED_MINUTE,
  TTS_DEFAULT_CONFIG,
  USAGE_UNITS,
  type UsageComponent,
  type UsageLine,
} from "@parley/contract";
import type { MeteredUsage } from "../billing/usage-meter.ts";

const round = (n: number) => Math.round(n * 1e6) / 1e6;

const perMinute = (table: PerMinute, model: string) => table.models?.[model] ?? table.default;
const perToken = (table: PerToken, model: string) => table.models?.[model] ?? table.default;

export interface CallCostOptions {
  /** USD per minute the carrier charges (the vendor descriptor's telephony price); 0 off the phone network. */
  telephonyPerMinute: number;
  /** Who carried the call (a telephony vendor id, `sip`, …), named on its telephony line. */
  telephonyProvider?: string;
  /** What the call used; none (a call that never started) bills its minutes only. */
  usage?: MeteredUsage;
}

/** A stored config's model when it is a name; a config saved by an older version may hold anything. */
const modelName = (value: unknown, fallback: unknown): string =>
  typeof value === "string" && value !== "" ? value : String(fallback);

/** The models the assistant's three stages ran on, defaults filled in. */
function modelsOf(assistant: Assistant) {
  return {
    llm: modelName(assistant.llm_provider_config.model, LLM_DEFAULT_CONFIG[assistant.llm_provider].model),
    stt: modelName(assistant.stt_provider_config.model, sttDefaultConfig(assistant.stt_provider).model),
    tts: modelName(assistant.tts_provider_config.model, TTS_DEFAULT_CONFIG[assistant.tts_provider].model),
  };
}

/**
 * What a call used, line by line, at the providers' list prices (the descriptors'): the model's
 * input and output tokens, the transcriber's minutes (the whole call is streamed), the voice's
 * characters and the carrier's minutes.
 */
export function usageLines(assistant: Assistant, durationMs: number, options: CallCostOptions): UsageLine[] {
  const minutes = durationMs / 60_000;
  const usage = options.usage ?? { llmInputTokens: 0, llmOutputTokens: 0, ttsCharacters: 0 };
  const models = modelsOf(assistant);
  const tokenPrice = perToken(PRICE_TABLE.llm[assistant.llm_provider], models.llm);
  const line = (component: UsageComponent, provider: string, model: string, quantity: number, unitPrice: number) => ({
    component,
    provider,
    model,
    unit: USAGE_UNITS[component],
    quantity: round(quantity),
    unit_price: unitPrice,
    cost: round(quantity * unitPrice),
  });
  const lines: UsageLine[] = [
    line("llm_input", assistant.llm_provider, models.llm, usage.llmInputTokens, tokenPrice.input / 1_000_000),
    line("llm_output", assistant.llm_provider, models.llm, usage.llmOutputTokens, tokenPrice.output / 1_000_000),
    line(
      "stt",
      assistant.stt_provider,
      models.stt,
      minutes,
      perMinute(PRICE_TABLE.stt[assistant.stt_provider], models.stt),
    ),
    line(
      "tts",
      assistant.tts_provider,
      models.tts,
      usage.ttsCharacters,
      perMinute(PRICE_TABLE.tts[assistant.tts_provider], models.tts) / TTS_CHARACTERS_PER_PRICED_MINUTE,
    ),
  ];
  if (options.telephonyPerMinute > 0) {
    lines.push(line("telephony", options.telephonyProvider ?? "carrier", "pstn", minutes, options.telephonyPerMinute));
  }
  return lines;
}

/** What a call cost: its usage lines, summed by stage, with the resulting price per minute. */
export function callCost(
  assistant: Assistant,
  durationMs: number,
  options: CallCostOptions,
): { cost: number; breakdown: CallCostBreakdown } {
  const lines = usageLines(assistant, durationMs, options);
  const sum = (...components: UsageComponent[]) =>
    round(lines.filter((l) => components.includes(l.component)).reduce((n, l) => n + l.cost, 0));
  const minutes = durationMs / 60_000;
  const platform = round(PRICE_TABLE.platformFeePerMinute * minutes);
  const cost = round(sum("llm_input", "llm_output", "stt", "tts", "telephony") + platform);
  return {
    cost,
    breakdown: {
      per_minute: minutes > 0 ? round(cost / minutes) : 0,
      minutes: round(minutes),
      stt: sum("stt"),
      llm: sum("llm_input", "llm_output"),
      tts: sum("tts"),
      telephony: sum("telephony"),
      platform,
      currency: "USD",
      usage: lines,
    },
  };
}

/**
 * A finished call's cost with more of its model's tokens added (post-call analysis runs on the
 * assistant's model after the call): the model lines grow at their own unit prices, the totals
 * follow. A call without usage lines (ended before metering, or closed by a crash) is unchanged.
 */
export function withModelTokens(
  cost: number,
  breakdown: CallCostBreakdown | null,
  tokens: { input: number; output: number },
): { cost: number; breakdown: CallCostBreakdown | null } {
  const usage = breakdown?.usage;
  if (!breakdown || !usage) return { cost, breakdown };
  const added: Partial<Record<UsageComponent, number>> = { llm_input: tokens.input, llm_output: tokens.output };
  let extra = 0;
  const lines = usage.map((line) => {
    const more = added[line.component] ?? 0;
    if (more === 0) return line;
    const lineCost = round(more * line.unit_price);
    extra += lineCost;
    return { ...line, quantity: round(line.quantity + more), cost: round(line.cost + lineCost) };
  });
  const total = round(cost + extra);
  return {
    cost: total,
    breakdown: {
      ...breakdown,
      llm: round(breakdown.llm + extra),
      per_minute: breakdown.minutes > 0 ? round(total / breakdown.minutes) : 0,
      usage: lines,
    },
  };
}
