import { type Assistant, type CallCostBreakdown, costPerMinute } from "@parley/contract";

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * What a call cost: the assistant's per-minute estimate times the call's minutes, by stage.
 * `telephonyPerMinute` is the carrier's price for the call's minutes (the vendor descriptor's
 * telephony price; 0 for browser calls), so a phone call's telephony line is what its vendor charges.
 */
export function callCost(
  assistant: Assistant,
  durationMs: number,
  options: { telephonyPerMinute: number },
): { cost: number; breakdown: CallCostBreakdown } {
  const sttModel = assistant.stt_provider_config.model;
  const rate = costPerMinute(
    {
      llm_provider: assistant.llm_provider,
      llm_provider_config: { model: assistant.llm_provider_config.model },
      stt_provider: assistant.stt_provider,
      stt_provider_config: typeof sttModel === "string" ? { model: sttModel } : {},
      tts_provider: assistant.tts_provider,
      tts_provider_config: { model: assistant.tts_provider_config.model },
      system_prompt: assistant.system_prompt,
    },
    { telephony: false },
  );
  const telephony = options.telephonyPerMinute;
  const perMinute = round(rate.total + telephony);
  const minutes = durationMs / 60_000;
  const stage = (price: number) => round(price * minutes);
  return {
    cost: stage(perMinute),
    breakdown: {
      per_minute: perMinute,
      minutes: round(minutes),
      stt: stage(rate.breakdown.stt),
      llm: stage(rate.breakdown.llm),
      tts: stage(rate.breakdown.tts),
      telephony: stage(telephony),
      platform: stage(rate.breakdown.platform),
      currency: "USD",
    },
  };
}
