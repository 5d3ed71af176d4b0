import { describe, expect, it } from "vitest";
import { createToolRunner, functionResult, type ToolEntry, toolName, webhookFaultKind } from "./tool-runner.ts";

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

  it("turns a throwing tool into a failed result the model can read, with its fault", async () => {
    const runner = createToolRunner([
      { spec: { name: "boom", description: "", parameters: {} }, run: async () => Promise.reject(new Error("down")) },
    ]);
    expect(await runner.run({ id: "1", name: "boom", arguments: "{}" }, { signal, idempotencyKey: "call:1" })).toEqual({
      ok: false,
      content: "down",
      fault: { kind: "failed", error: "down" },
    });
  });

  it("hands each tool the call's signal and idempotency key", async () => {
    const seen: { key: string; signal: AbortSignal }[] = [];
    const runner = createToolRunner([
      {
        spec: { name: "book", description: "", parameters: {} },
        run: async (_args, options) => {
          seen.push({ key: options.idempotencyKey, signal: options.signal });
          return { ok: true, content: "{}" };
        },
      },
    ]);
    await runner.run({ id: "call_7", name: "book", arguments: "{}" }, { signal, idempotencyKey: "c1:call_7" });
    expect(seen).toEqual([{ key: "c1:call_7", signal }]);
  });
});

describe("a function webhook's failure", () => {
  it("names its kind for the call's log: timeout, unreachable, rate limited, server error, rejected", () => {
    expect(webhookFaultKind({ status: 0, timedOut: true })).toBe("timeout");
    expect(webhookFaultKind({ status: 0 })).toBe("unreachable");
    expect(webhookFaultKind({ status: 429 })).toBe("rate_limited");
    expect(webhookFaultKind({ status: 500 })).toBe("server_error");
    expect(webhookFaultKind({ status: 503 })).toBe("server_error");
    expect(webhookFaultKind({ status: 404 })).toBe("rejected");
    expect(webhookFaultKind({ status: 400 })).toBe("rejected");
  });

  it("tells the model what went wrong, with the function's body, and carries no fault when it worked", () => {
    expect(functionResult({ ok: true, status: 200, durationMs: 5, body: '{"open":"9am"}' })).toEqual({
      ok: true,
      content: '{"open":"9am"}',
    });
    const timedOut = functionResult({
      ok: false,
      status: 0,
      durationMs: 3000,
      body: "",
      error: "The function did not answer within 3 seconds.",
      timedOut: true,
    });
    expect(timedOut).toEqual({
      ok: false,
      content: "The function did not answer within 3 seconds.",
      fault: { kind: "timeout", error: "The function did not answer within 3 seconds." },
    });
    const failed = functionResult({
      ok: false,
      status: 503,
      durationMs: 5,
      body: "busy",
      error: "The function answered with HTTP 503.",
    });
    expect(failed).toEqual({
      ok: false,
      content: "The function answered with HTTP 503. busy",
      fault: { kind: "server_error", error: "The function answered with HTTP 503." },
    });
  });
});
