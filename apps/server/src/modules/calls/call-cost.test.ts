import { Assistant, AssistantFields, PRICE_TABLE } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { callCost } from "./call-cost.ts";

/** An assistant on priced providers: gpt-4o at OpenAI, Deepgram nova-3, ElevenLabs multilingual v2. */
function pricedAssistant(): Assistant {
  const fields = AssistantFields.parse({
    name: "Priced",
    llm_provider: "openai",
    llm_provider_config: { model: "gpt-4o" },
    stt_provider: "deepgram",
    stt_provider_config: { model: "nova-3" },
    tts_provider: "elevenlabs",
    tts_provider_config: { model: "eleven_multilingual_v2", voice: "21m00Tcm4TlvDq8ikWAM" },
  });
  return Assistant.parse({
    ...fields,
    id: "00000000-0000-4000-8000-000000000001",
    temp: false,
    created_at: new Date(0).toISOString(),
    updated_at: new Date(0).toISOString(),
  });
}

describe("a call's cost", () => {
  it("is its usage priced from the price table, line by line", () => {
    const usage = { llmInputTokens: 12_000, llmOutputTokens: 800, ttsCharacters: 1_500 };
    // Three minutes on a carrier at $0.014 a minute.
    const { cost, breakdown } = callCost(pricedAssistant(), 180_000, { telephonyPerMinute: 0.014, usage });

    // Written out from the list prices: $2.50 / $10 per million tokens, $0.0077 a transcribed
    // minute, $0.06 per 500 characters of voice, $0.014 a carrier minute.
    expect(PRICE_TABLE.llm.openai.models?.["gpt-4o"]).toEqual({ input: 2.5, output: 10 });
    expect(PRICE_TABLE.stt.deepgram.models?.["nova-3"]).toBe(0.0077);
    expect(PRICE_TABLE.tts.elevenlabs.models?.eleven_multilingual_v2).toBe(0.06);
    const expected = {
      llm_input: 12_000 * 2.5e-6,
      llm_output: 800 * 10e-6,
      stt: 3 * 0.0077,
      tts: 1_500 * (0.06 / 500),
      telephony: 3 * 0.014,
    };
    const lines = Object.fromEntries((breakdown.usage ?? []).map((line) => [line.component, line]));
    for (const [component, amount] of Object.entries(expected)) {
      expect(lines[component]?.cost, component).toBeCloseTo(amount, 9);
    }
    expect(lines.llm_input).toMatchObject({ provider: "openai", model: "gpt-4o", unit: "token", quantity: 12_000 });
    expect(lines.stt).toMatchObject({ provider: "deepgram", model: "nova-3", unit: "minute", quantity: 3 });
    expect(lines.tts).toMatchObject({ provider: "elevenlabs", unit: "character", quantity: 1_500 });
    expect(lines.telephony).toMatchObject({ unit: "minute", quantity: 3, unit_price: 0.014 });

    const total = Object.values(expected).reduce((a, b) => a + b, 0);
    expect(cost).toBeCloseTo(total, 6);
    expect(breakdown.llm).toBeCloseTo(expected.llm_input + expected.llm_output, 9);
    expect(breakdown.stt).toBeCloseTo(expected.stt, 9);
    expect(breakdown.tts).toBeCloseTo(expected.tts, 9);
    expect(breakdown.telephony).toBeCloseTo(expected.telephony, 9);
    expect(breakdown.per_minute).toBeCloseTo(total / 3, 6);
    expect(breakdown.minutes).toBe(3);
  });

  it("has no telephony line off the phone network, and bills a call that used nothing for its minutes", () => {
    const { cost, breakdown } = callCost(pricedAssistant(), 60_000, { telephonyPerMinute: 0 });
    expect(breakdown.usage?.map((line) => line.component)).toEqual(["llm_input", "llm_output", "stt", "tts"]);
    expect(cost).toBeCloseTo(0.0077, 9);
  });
});
