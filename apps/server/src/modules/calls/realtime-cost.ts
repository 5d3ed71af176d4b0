import {
  type Assistant,
  type CallCostBreakdown,
  PRICE_TABLE,
  type RealtimeTokens,
  realtimePrice,
  realtimeTokenCost,
  USAGE_UNITS,
  type UsageComponent,
  type UsageLine,
} from "@parley/contract";
import type { RealtimeUsage } from "@parley/engine";

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** The engine's usage totals in the call log's words. */
export function realtimeTokens(usage: RealtimeUsage): RealtimeTokens {
  return {
    input_text: usage.inputTextTokens,
    input_audio: usage.inputAudioTokens,
    cached_input: usage.cachedInputTokens,
    output_text: usage.outputTextTokens,
    output_audio: usage.outputAudioTokens,
  };
}

/**
 * What a call on a realtime model cost: its tokens by modality at the model's list prices (the
 * descriptor's), as the call's model input and output lines (each at the average price it came
 * to; the tokens by modality go into the breakdown), the carrier's minutes and no transcriber or
 * voice (the model hears and speaks itself).
 */
export function realtimeCallCost(
  assistant: Assistant,
  durationMs: number,
  options: { usage: RealtimeUsage; telephonyPerMinute: number; telephonyProvider?: string },
): { cost: number; breakdown: CallCostBreakdown } {
  const { provider, model } = assistant.realtime;
  const tokens = realtimeTokens(options.usage);
  const priced = realtimeTokenCost(realtimePrice(provider, model), tokens);
  const minutes = durationMs / 60_000;
  const line = (
    component: UsageComponent,
    quantity: number,
    cost: number,
    lineProvider: string = provider,
    lineModel = model,
  ) => ({
    component,
    provider: lineProvider,
    model: lineModel,
    unit: USAGE_UNITS[component],
    quantity: round(quantity),
    unit_price: quantity > 0 ? cost / quantity : 0,
    cost,
  });
  const inputTokens = tokens.input_text + tokens.input_audio;
  const lines: UsageLine[] = [
    line("llm_input", inputTokens, priced.input),
    line("llm_output", tokens.output_text + tokens.output_audio, priced.output),
  ];
  const telephony = options.telephonyPerMinute > 0 ? round(minutes * options.telephonyPerMinute) : 0;
  if (telephony > 0) {
    lines.push(line("telephony", minutes, telephony, options.telephonyProvider ?? "carrier", "pstn"));
  }
  const platform = round(PRICE_TABLE.platformFeePerMinute * minutes);
  const llm = round(priced.input + priced.output);
  const cost = round(llm + telephony + platform);
  return {
    cost,
    breakdown: {
      per_minute: minutes > 0 ? round(cost / minutes) : 0,
      minutes: round(minutes),
      stt: 0,
      llm,
      tts: 0,
      telephony,
      platform,
      currency: "USD",
      usage: lines,
      realtime_tokens: tokens,
    },
  };
}
