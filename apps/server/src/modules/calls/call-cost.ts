import { type Assistant, type CallCostBreakdown, costPerMinute } from "@parley/contract";

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** What a call cost: the assistant's per-minute estimate times the call's minutes, by stage. */
export function callCost(
  assistant: Assistant,
  durationMs: number,
  options: { telephony: boolean },
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
    { telephony: options.telephony },
  );
  const minutes = durationMs / 60_000;
  const stage = (perMinute: number) => round(perMinute * minutes);
  return {
    cost: stage(rate.total),
    breakdown: {
      per_minute: rate.total,
      minutes: round(minutes),
      stt: stage(rate.breakdown.stt),
      llm: stage(rate.breakdown.llm),
      tts: stage(rate.breakdown.tts),
      telephony: stage(rate.breakdown.telephony),
      platform: stage(rate.breakdown.platform),
      currency: "USD",
    },
  };
}
