import { describe, expect, it } from "vitest";
import { CallHarness } from "../../testing/call-harness.ts";
import { toolCall } from "../../testing/fake-providers.ts";

describe("call session: first message and turns", () => {
  it("speaks the first message when the assistant speaks first", async () => {
    const call = new CallHarness({ assistant: { first_message: "Welcome to Parley." } });
    await call.start();
    await call.untilListening();
    expect(call.tts.texts).toEqual(["Welcome to Parley."]);
    expect(call.transcript()).toEqual(["assistant: Welcome to Parley."]);
    expect(call.of("state").map((e) => e.state)).toEqual(["thinking", "speaking", "listening"]);
    await call.session.hangup("caller_hangup");
  });

  it("waits for the caller when the user speaks first", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user" },
      heard: ["Hello?"],
      replies: ["Hi, how can I help?"],
    });
    await call.start();
    await call.wait(2000);
    expect(call.tts.texts).toEqual([]);
    await call.say();
    await call.untilListening();
    expect(call.transcript()).toEqual(["user: Hello?", "assistant: Hi, how can I help?"]);
    expect(call.llm.requests[0]?.messages.map((m) => m.role)).toEqual(["system", "user"]);
    await call.session.hangup("caller_hangup");
  });

  it("answers typed text as a caller turn and reports turn metrics", async () => {
    const call = new CallHarness({ assistant: { first_speaker: "user" }, replies: ["Sure thing."] });
    await call.start();
    call.session.pushText("Can you help?");
    await call.untilListening();
    expect(call.transcript()).toEqual(["user: Can you help?", "assistant: Sure thing."]);
    const [metrics] = call.of("turn_metrics");
    expect(metrics?.metrics).toMatchObject({ turn: 1, sttMs: null });
    expect(metrics?.metrics.voiceToVoiceMs).not.toBeNull();
    await call.session.hangup("caller_hangup");
    const summary = await call.session.done;
    expect(summary.reason).toBe("caller_hangup");
  });
});

describe("call session: tools", () => {
  it("sends tool results back to the model until it answers in words", async () => {
    const runs: string[] = [];
    const call = new CallHarness({
      assistant: { first_speaker: "user" },
      replies: [[toolCall("lookup_order", { id: "42" })], "Your order ships tomorrow."],
      tools: {
        tools: () => [{ name: "lookup_order", description: "Find an order", parameters: { type: "object" } }],
        run: async (c) => {
          runs.push(c.arguments);
          return { ok: true, content: '{"status":"ships tomorrow"}' };
        },
      },
    });
    await call.start();
    call.session.pushText("Where is order 42?");
    await call.untilListening();
    expect(runs).toEqual(['{"id":"42"}']);
    const second = call.llm.requests[1]?.messages ?? [];
    expect(second.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second.at(-1)).toMatchObject({ role: "tool", name: "lookup_order", content: '{"status":"ships tomorrow"}' });
    expect(call.of("tool_call")[0]).toMatchObject({ name: "lookup_order", ok: true });
    expect(call.transcript().at(-1)).toBe("assistant: Your order ships tomorrow.");
    expect(call.llm.requests[0]?.tools?.map((t) => t.name)).toEqual(["lookup_order", "end_call", "send_dtmf"]);
    await call.session.hangup("caller_hangup");
  });

  it("ends the call with the goodbye message when the model calls end_call", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user", end_call_goodbye_message: "Bye now." },
      replies: [[{ type: "text", text: "Glad I could help. " }, toolCall("end_call")]],
    });
    await call.start();
    call.session.pushText("That's all, thanks.");
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("assistant_ended");
    expect(call.tts.texts).toEqual(["Glad I could help.", "Bye now."]);
    expect(call.of("end")).toHaveLength(1);
  });

  it("sends DTMF when the model presses keys", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user" },
      replies: [[toolCall("send_dtmf", { digits: "12#" })], "Done."],
    });
    await call.start();
    call.session.pushText("Press one two hash.");
    await call.untilListening();
    expect(call.of("dtmf_out").map((e) => e.digits)).toEqual(["12#"]);
    await call.session.hangup("caller_hangup");
  });
});
