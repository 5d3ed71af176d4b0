import { describe, expect, it } from "vitest";
import { createToolRunner, type ToolEntry, toolName } from "./tool-runner.ts";

const entry = (name: string, answer = name): ToolEntry => ({
  spec: { name, description: name, parameters: { type: "object" } },
  run: async (args) => ({ ok: true, content: `${answer}:${JSON.stringify(args)}` }),
});

const signal = new AbortController().signal;

describe("tool runner", () => {
  it("cleans names to what model APIs accept", () => {
    expect(toolName("Clinic tools")).toBe("Clinic_tools");
    expect(toolName("ünïcode!!")).toBe("n_code");
    expect(toolName("x".repeat(80))).toHaveLength(64);
    expect(toolName("***")).toBe("tool");
  });

  it("renames clashes and keeps clear of the engine's own tools", () => {
    const runner = createToolRunner([entry("lookup"), entry("lookup"), entry("end_call"), entry("send_dtmf")]);
    expect(runner.tools().map((t) => t.name)).toEqual(["lookup", "lookup_2", "end_call_2", "send_dtmf_2"]);
  });

  it("runs the named tool and refuses unknown names and non-object arguments", async () => {
    const runner = createToolRunner([entry("a", "first"), entry("a", "second")]);
    expect(
      await runner.run({ id: "1", name: "a_2", arguments: '{"x":1}' }, { signal, idempotencyKey: "call:1" }),
    ).toEqual({
      ok: true,
      content: 'second:{"x":1}',
    });
    expect(await runner.run({ id: "2", name: "a", arguments: "" }, { signal, idempotencyKey: "call:1" })).toEqual({
      ok: true,
      content: "first:{}",
    });
    expect(
      (await runner.run({ id: "3", name: "nope", arguments: "{}" }, { signal, idempotencyKey: "call:1" })).ok,
    ).toBe(false);
    expect((await runner.run({ id: "4", name: "a", arguments: "[1]" }, { signal, idempotencyKey: "call:1" })).ok).toBe(
      false,
    );
    expect(
      (await runner.run({ id: "5", name: "a", arguments: "{oops" }, { signal, idempotencyKey: "call:1" })).ok,
    ).toBe(false);
  });

  it("turns a throwing tool into a failed result the model can read", async () => {
    const runner = createToolRunner([
      { spec: { name: "boom", description: "", parameters: {} }, run: async () => Promise.reject(new Error("down")) },
    ]);
    expect(await runner.run({ id: "1", name: "boom", arguments: "{}" }, { signal, idempotencyKey: "call:1" })).toEqual({
      ok: false,
      content: "down",
    });
  });
});
