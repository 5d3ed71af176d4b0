import { FaultPolicy } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { CallHarness } from "../../testing/call-harness.ts";
import { ScriptedLlm, toolCall } from "../../testing/fake-providers.ts";
import { ProviderError } from "../providers/provider-error.ts";
import type { ChatRequest, LlmChunk, LlmProvider } from "../providers/types.ts";
import { RECOVERY_GAP_MS, reportedEndReason } from "./fault-policy.ts";
import type { ToolRunner } from "./types.ts";

/** A model whose every request fails the way `fail` says (refused, 5xx, …). */
class DownLlm implements LlmProvider {
  readonly model = "down";
  requests = 0;
  constructor(
    readonly id: string,
    private readonly fail: () => Error,
  ) {}
  // biome-ignore lint/correctness/useYield: it fails before its first token
  async *chat(): AsyncIterable<LlmChunk> {
    this.requests += 1;
    throw this.fail();
  }
}

/** A model that accepts requests and never says a word (until aborted). */
class HangingLlm implements LlmProvider {
  readonly id = "hanging-llm";
  readonly model = "hanging";
  requests = 0;
  async *chat(request: ChatRequest): AsyncIterable<LlmChunk> {
    this.requests += 1;
    await new Promise<void>((resolve) => request.signal?.addEventListener("abort", () => resolve(), { once: true }));
  }
}

const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });

/** The longest stretch (ms) between the first moment and the last with no audible assistant frame. */
function longestGap(call: CallHarness, fromFrame: number): number {
  let gap = 0;
  let run = 0;
  for (const frame of call.audio.slice(fromFrame)) {
    if (frame.some((s) => Math.abs(s) > 30)) {
      run = 0;
    } else {
      run += 20;
      gap = Math.max(gap, run);
    }
  }
  return gap;
}

describe("fault policy", () => {
  it("says the recovery line, asks again, then says goodbye and ends on assistant_error when the model stays down", async () => {
    const down = new DownLlm("openai", () => new ProviderError("openai", "HTTP 503: overloaded", true, 503));
    const call = new CallHarness({
      assistant: {
        first_speaker: "user",
        fault_policy: FaultPolicy.parse({ goodbye_message: "Please call back later." }),
      },
      heard: ["What are your hours?"],
      wrapLlm: () => down,
    });
    await call.start();
    await call.say();
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("assistant_error");
    expect(call.tts.texts).toEqual(["Sorry, I'm having trouble — one moment.", "Please call back later."]);
    expect(summary.faults.map((f) => [f.stage, f.kind, f.action])).toEqual([
      ["llm", "server_error", "recovered"],
      ["llm", "server_error", "gave_up"],
    ]);
    expect(call.of("fault").map((f) => f.provider)).toEqual(["openai", "openai"]);
    expect(reportedEndReason(summary.reason, summary.faults)).toBe("assistant_error");
  });

  it("moves to the backup model when the first refuses connections, and reports fallback_used", async () => {
    const down = new DownLlm("openai", refused);
    const call = new CallHarness({
      assistant: { first_speaker: "user" },
      heard: ["Hello?"],
      replies: ["Backup here."],
      wrapLlm: () => down,
      fallbacks: { llm: [new ScriptedLlm(["Backup here."])] },
    });
    await call.start();
    await call.say();
    await call.untilListening();
    expect(call.transcript()).toEqual(["user: Hello?", "assistant: Backup here."]);
    expect(call.of("provider_fallback")).toEqual([
      expect.objectContaining({ stage: "llm", from: "openai", to: "scripted-llm" }),
    ]);
    expect(call.of("fault")).toEqual([
      expect.objectContaining({ stage: "llm", kind: "unreachable", action: "fallback" }),
    ]);
    await call.session.hangup("caller_hangup");
    const summary = await call.untilEnded();
    expect(reportedEndReason(summary.reason, summary.faults)).toBe("fallback_used");
  });

  it("keeps the caller from silence: a model that never answers is dropped at its deadline for the backup", async () => {
    const hanging = new HangingLlm();
    const call = new CallHarness({
      assistant: { first_speaker: "user", fault_policy: FaultPolicy.parse({ first_token_timeout_ms: 3000 }) },
      heard: ["Are you open today?"],
      wrapLlm: () => hanging,
      fallbacks: { llm: [new ScriptedLlm(["Yes, until six."])] },
    });
    await call.start();
    const before = call.audio.length;
    await call.say();
    await call.untilListening();
    expect(call.transcript().at(-1)).toBe("assistant: Yes, until six.");
    expect(call.of("fault")).toEqual([expect.objectContaining({ stage: "llm", kind: "timeout", action: "fallback" })]);
    // The end-of-turn wait and the 3 s deadline: the caller heard the reply within 4 s of speaking.
    expect(longestGap(call, before + 30)).toBeLessThan(4000);
  });

  it("never leaves the caller 4 s in silence while a model with no backup times out twice, then gives up", async () => {
    const hanging = new HangingLlm();
    const call = new CallHarness({
      assistant: { first_speaker: "user", fault_policy: FaultPolicy.parse({ goodbye_message: "Goodbye for now." }) },
      heard: ["Can you help me?"],
      wrapLlm: () => hanging,
    });
    await call.start();
    const before = call.audio.length;
    await call.say();
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("assistant_error");
    expect(hanging.requests).toBe(2);
    expect(call.tts.texts[0]).toBe("Sorry, I'm having trouble — one moment.");
    expect(call.tts.texts.at(-1)).toBe("Goodbye for now.");
    // Never the same recovery line twice in a row from the watchdog and the failed chain together.
    expect(call.tts.texts.filter((t) => t.startsWith("Sorry")).length).toBeLessThanOrEqual(2);
    expect(longestGap(call, before + 50)).toBeLessThan(4000);
    expect(summary.faults.map((f) => [f.kind, f.action])).toEqual([
      ["timeout", "recovered"],
      ["timeout", "gave_up"],
    ]);
  });

  it("says the recovery line when the reply is owed and nothing is heard for the recovery gap", async () => {
    const hanging = new HangingLlm();
    const call = new CallHarness({
      assistant: { first_speaker: "user", fault_policy: FaultPolicy.parse({ first_token_timeout_ms: 10_000 }) },
      heard: ["Hello?"],
      wrapLlm: () => hanging,
    });
    await call.start();
    await call.say();
    await call.wait(RECOVERY_GAP_MS);
    expect(call.tts.texts).toEqual(["Sorry, I'm having trouble — one moment."]);
    await call.session.hangup("caller_hangup");
  });

  it("does not end the call for an end_call in a reply the caller interrupted before it was heard", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user", end_call_function: true },
      heard: ["I think that is all.", "Wait, one more thing."],
      replies: [
        [{ type: "text", text: "Alright, thank you for calling and have a lovely day. " }, toolCall("end_call")],
        "Sure, go ahead.",
      ],
      msPerWord: 300,
    });
    await call.start();
    await call.say();
    await call.clock.until(() => call.speaking(), 10_000);
    await call.say(); // barges into the goodbye
    await call.untilListening();
    expect(call.summary).toBeNull();
    expect(call.of("tool_skipped")).toEqual([expect.objectContaining({ name: "end_call" })]);
    expect(call.of("tool_call").map((t) => t.name)).not.toContain("end_call");
    await call.session.hangup("caller_hangup");
  });

  it("ends the call once a reply with end_call has been heard to its end", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user", end_call_function: true, end_call_goodbye_message: "Bye." },
      heard: ["That is all."],
      replies: [[{ type: "text", text: "Thanks for calling. " }, toolCall("end_call")]],
    });
    await call.start();
    await call.say();
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("assistant_ended");
    expect(call.tts.texts).toEqual(["Thanks for calling.", "Bye."]);
  });

  it("stops a tool at the tool timeout, tells the model, and sends the same idempotency key to every attempt", async () => {
    const keys: string[] = [];
    const tools: ToolRunner = {
      tools: () => [{ name: "lookup", description: "Looks up", parameters: { type: "object", properties: {} } }],
      run: (_call, options) => {
        keys.push(options.idempotencyKey);
        return new Promise(() => undefined);
      },
    };
    const call = new CallHarness({
      assistant: { first_speaker: "user", fault_policy: FaultPolicy.parse({ tool_timeout_ms: 2000 }) },
      heard: ["Where is my order?"],
      replies: [[toolCall("lookup", {}, "call_1")], "I could not check that right now."],
      tools,
    });
    await call.start();
    await call.say();
    await call.untilListening();
    const [result] = call.of("tool_call");
    expect(result).toMatchObject({ name: "lookup", ok: false });
    expect(result?.result).toContain("did not answer within 2 s");
    expect(call.of("fault")).toEqual([expect.objectContaining({ stage: "tool", provider: "lookup", kind: "timeout" })]);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/:call_1$/);
    await call.session.hangup("caller_hangup");
    const summary = await call.untilEnded();
    expect(reportedEndReason(summary.reason, summary.faults)).toBe("tool_timeout");
  });

  it("tells the model a tool call's arguments were malformed and records it against the model", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user" },
      heard: ["Book it."],
      replies: [[{ type: "tool_call", call: { id: "c1", name: "send_dtmf", arguments: "{digits: 1" } }], "Done."],
    });
    await call.start();
    await call.say();
    await call.untilListening();
    expect(call.of("tool_call")[0]?.result).toContain("not valid JSON");
    expect(call.of("fault")).toEqual([expect.objectContaining({ stage: "llm", kind: "malformed", action: "retried" })]);
    await call.session.hangup("caller_hangup");
  });
});
