import { Assistant, AssistantFields } from "@parley/contract";
import type { LlmProvider } from "@parley/engine";
import { describe, expect, it } from "vitest";
import { UsageMeter } from "../billing/usage-meter.ts";
import { callCost } from "./call-cost.ts";
import { CallSegments } from "./call-segments.ts";

function assistant(id: string, llm: "openai" | "anthropic"): Assistant {
  const fields = AssistantFields.parse({ name: `A${id}`, llm_provider: llm });
  return Assistant.parse({
    ...fields,
    id: `00000000-0000-4000-8000-00000000000${id}`,
    temp: false,
    created_at: new Date(0).toISOString(),
    updated_at: new Date(0).toISOString(),
  });
}

/** A model that reports its tokens, so a meter counts them exactly. */
const reporting = (input: number, output: number): LlmProvider => ({
  id: "m",
  model: "m",
  async *chat() {
    yield { type: "usage", inputTokens: input, outputTokens: output };
  },
});

async function use(meter: UsageMeter, input: number, output: number) {
  for await (const _ of meter.wrapModel(reporting(input, output)).chat({ messages: [] })) {
    // drained: the meter counts as the stream passes
  }
}

describe("a squad call's segments", () => {
  it("price each stretch at its own assistant's providers, back to back, and sum to the call's cost", async () => {
    const receptionist = assistant("1", "openai");
    const billing = assistant("2", "anthropic");
    const segments = new CallSegments({ assistant: receptionist, member: "receptionist" });
    await use(segments.usage, 1000, 100);
    segments.turn(800);
    segments.turn(null);
    const billingMeter = new UsageMeter();
    await use(billingMeter, 2000, 300);
    segments.handOff(
      { assistant: billing, member: "billing", from: "receptionist", reason: "invoice", usage: billingMeter },
      30_000,
    );
    segments.turn(600);
    segments.turn(400);
    const closed = segments.close(90_000, 0.01);

    expect(closed.segments).toEqual([
      expect.objectContaining({
        member: "receptionist",
        started_at_ms: 0,
        ended_at_ms: 30_000,
        reason: null,
        turns: 2,
        latency_p50_ms: 800,
      }),
      expect.objectContaining({
        member: "billing",
        from_member: "receptionist",
        started_at_ms: 30_000,
        ended_at_ms: 90_000,
        reason: "invoice",
        turns: 2,
        latency_p50_ms: 500,
      }),
    ]);
    const first = callCost(receptionist, 30_000, { telephonyPerMinute: 0.01, usage: usageOf(1000, 100) });
    const second = callCost(billing, 60_000, { telephonyPerMinute: 0.01, usage: usageOf(2000, 300) });
    expect(closed.segments.map((s) => s.cost)).toEqual([first.cost, second.cost]);
    expect(closed.cost).toBeCloseTo(first.cost + second.cost, 6);
    expect(closed.breakdown.minutes).toBeCloseTo(1.5, 6);
    expect(closed.breakdown.usage).toHaveLength(
      (first.breakdown.usage?.length ?? 0) + (second.breakdown.usage?.length ?? 0),
    );
  });
});

function usageOf(input: number, output: number) {
  return { llmInputTokens: input, llmOutputTokens: output, ttsCharacters: 0 };
}
