import { describe, expect, it } from "vitest";
import { diffConfigs } from "./version-diff.ts";

describe("diffConfigs", () => {
  it("names changed leaves of nested objects and leaves equal ones out", () => {
    const from = { system_prompt: "A", llm_provider_config: { model: "m", temperature: 0.2 }, tools: [1, 2] };
    const to = { system_prompt: "B", llm_provider_config: { temperature: 0.7, model: "m" }, tools: [1, 2] };
    expect(diffConfigs(from, to)).toEqual([
      { field: "llm_provider_config.temperature", from: 0.2, to: 0.7 },
      { field: "system_prompt", from: "A", to: "B" },
    ]);
  });

  it("reads a field missing on one side as null, and compares arrays whole", () => {
    expect(diffConfigs({ a: [1, 2] }, { a: [2, 1], b: true })).toEqual([
      { field: "a", from: [1, 2], to: [2, 1] },
      { field: "b", from: null, to: true },
    ]);
  });

  it("finds nothing between equal configurations whatever their key order", () => {
    expect(diffConfigs({ x: { b: 1, a: { c: [1] } } }, { x: { a: { c: [1] }, b: 1 } })).toEqual([]);
  });
});
