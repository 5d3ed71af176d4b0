import { describe, expect, it } from "vitest";
import type { CallFigures } from "./call-figures.ts";
import { variantResults } from "./experiment-results.ts";

const variant = (id: string, version: number) => ({
  id,
  experimentId: "e",
  workspaceId: "w",
  position: version - 1,
  version,
  percent: 50,
});
const figures = (callId: string, passed: boolean | null, over: Partial<CallFigures> = {}): CallFigures => ({
  callId,
  passed,
  durationSeconds: 60,
  transferred: false,
  cost: 0.1,
  latenciesMs: [800],
  ...over,
});

describe("variantResults", () => {
  it("gives each variant its calls' figures and the p-value against the first", () => {
    const variants = [variant("a", 1), variant("b", 2)];
    const calls = [
      ...Array.from({ length: 100 }, (_, i) => ({ callId: `a${i}`, variantId: "a" })),
      ...Array.from({ length: 100 }, (_, i) => ({ callId: `b${i}`, variantId: "b" })),
      // A call opened but not ended yet: counted, no figures.
      { callId: "b-live", variantId: "b" },
    ];
    const ended = [
      ...Array.from({ length: 100 }, (_, i) => figures(`a${i}`, i < 60, { latenciesMs: [1000 + i] })),
      ...Array.from({ length: 100 }, (_, i) =>
        figures(`b${i}`, i < 75, { transferred: i < 10, durationSeconds: 30, cost: 0.2, latenciesMs: [500 + i] }),
      ),
    ];
    const [a, b] = variantResults(variants, calls, ended);
    expect(a).toMatchObject({ version: 1, calls: 100, judged: 100, success_rate: 0.6, p_value: null });
    expect(a?.p50_latency_ms).toBe(1049);
    expect(b).toMatchObject({
      version: 2,
      calls: 101,
      judged: 100,
      success_rate: 0.75,
      avg_duration_seconds: 30,
      transfer_rate: 0.1,
      p50_latency_ms: 549,
      p95_latency_ms: 594,
    });
    expect(b?.cost_per_call).toBeCloseTo(0.2, 9);
    expect(b?.p_value).toBeCloseTo(0.0235, 3);
  });

  it("leaves rates null for a variant without ended calls and ignores unjudged calls in the success rate", () => {
    const [a, b] = variantResults(
      [variant("a", 1), variant("b", 2)],
      [
        { callId: "1", variantId: "a" },
        { callId: "2", variantId: "a" },
      ],
      [figures("1", true), figures("2", null)],
    );
    expect(a).toMatchObject({ calls: 2, judged: 1, success_rate: 1 });
    expect(b).toMatchObject({ calls: 0, judged: 0, success_rate: null, avg_duration_seconds: null, p_value: null });
  });
});
