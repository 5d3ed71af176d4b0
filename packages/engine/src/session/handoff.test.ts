import { describe, expect, it } from "vitest";
import { CallHarness, testAssistant } from "../../testing/call-harness.ts";
import { FakeTts, ScriptedLlm, ScriptedStt, toolCall } from "../../testing/fake-providers.ts";
import { wfDefinition, wfEdge, wfNode } from "../../testing/workflow-graphs.ts";
import { callSettingsOf } from "./call-settings.ts";
import type { AssistantSwitch, Handoffs } from "./types.ts";

/** A second assistant on its own model and voice; its hand-offs lead back to the receptionist. */
function billingDesk(replies: string[]) {
  const llm = new ScriptedLlm(replies);
  const tts = new FakeTts({ msPerWord: 100 });
  return { llm, tts };
}

describe("call session: hand-offs between assistants", () => {
  it("switches prompt, model and voice at the turn boundary, says the bridge line, and the next assistant answers", async () => {
    const billing = billingDesk(["Billing here: I see your invoice."]);
    const requests: { target: string; reason: string }[] = [];
    const handoffs: Handoffs = {
      targets: [{ name: "billing", description: "Invoices and payments." }],
      request(target, reason, history) {
        requests.push({ target, reason });
        const change: AssistantSwitch = {
          from: "receptionist",
          to: target,
          reason,
          next: {
            settings: callSettingsOf(testAssistant({ system_prompt: "You are billing." })),
            llm: billing.llm,
            tts: billing.tts,
          },
          history: history.flatMap((m) => (m.role === "user" ? [{ role: "user" as const, content: m.content }] : [])),
        };
        return { bridgeLine: "Let me pass you to billing.", next: Promise.resolve(change) };
      },
    };
    const call = new CallHarness({
      assistant: { first_speaker: "user" },
      replies: [
        ["One moment.", toolCall("handoff_to_billing", { reason: "invoice question" })].map((c) =>
          typeof c === "string" ? { type: "text" as const, text: c } : c,
        ),
      ],
      handoffs,
    });
    await call.start();
    expect(call.llm.requests).toHaveLength(0);
    call.session.pushText("I have a question about my invoice");
    await call.clock.until(() => call.of("handoff").length > 0, 30_000);
    await call.untilListening();

    expect(call.llm.requests[0]?.tools?.map((t) => t.name)).toContain("handoff_to_billing");
    expect(requests).toEqual([{ target: "billing", reason: "invoice question" }]);
    expect(call.of("handoff")[0]).toMatchObject({ from: "receptionist", to: "billing", reason: "invoice question" });
    // The receptionist's voice said its reply and the bridge line; billing's voice the answer.
    expect(call.tts.texts).toEqual(["One moment.", "Let me pass you to billing."]);
    expect(billing.tts.texts).toEqual(["Billing here: I see your invoice."]);
    expect(billing.llm.requests[0]?.messages[0]?.content).toContain("You are billing.");
    expect(billing.llm.requests[0]?.messages.slice(1)).toEqual([
      { role: "user", content: "I have a question about my invoice" },
    ]);
    expect(call.transcript()).toEqual([
      "user: I have a question about my invoice",
      "assistant: One moment.",
      "assistant: Let me pass you to billing.",
      "assistant: Billing here: I see your invoice.",
    ]);
    // The next caller turn goes to billing's model.
    call.session.pushText("Thanks");
    await call.clock.until(() => billing.llm.requests.length === 2, 30_000);
    await call.session.hangup("caller_hangup");
  });

  it("tells the model why a refused hand-off did not happen, and the call goes on", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user" },
      replies: [[toolCall("handoff_to_billing", { reason: "again" })], "I can help you myself."],
      handoffs: {
        targets: [{ name: "billing", description: "Invoices." }],
        request: () => ({ refused: "This call has been handed over 5 times, the most its squad allows." }),
      },
    });
    await call.start();
    call.session.pushText("Billing please");
    await call.clock.until(() => call.llm.requests.length === 2, 30_000);
    await call.untilListening();
    expect(call.of("handoff")).toEqual([]);
    expect(call.of("tool_call")[0]).toMatchObject({ name: "handoff_to_billing", ok: false });
    expect(call.llm.requests[1]?.messages.at(-1)).toMatchObject({
      role: "tool",
      content: "This call has been handed over 5 times, the most its squad allows.",
    });
    expect(call.transcript().at(-1)).toBe("assistant: I can help you myself.");
    await call.session.hangup("caller_hangup");
  });

  it("hands off from a workflow's hand-off node when the squad allows it, saying the node's message", async () => {
    const billing = billingDesk(["Billing here."]);
    const asked: string[] = [];
    const definition = wfDefinition({
      nodes: [
        wfNode("start", "start", { name: "Start", greeting: "Front desk.", prompt: "" }),
        wfNode("pass", "handoff", { name: "To billing", member: "billing", message: "Passing you to billing." }),
      ],
      edges: [wfEdge("start", "pass")],
    });
    const call = new CallHarness({
      assistant: { first_speaker: "assistant" },
      workflow: { definition },
      handoffs: {
        targets: [{ name: "billing", description: "Invoices." }],
        request(target, reason, history) {
          asked.push(`${target}: ${reason}`);
          const next = { settings: callSettingsOf(testAssistant()), llm: billing.llm, tts: billing.tts };
          return {
            bridgeLine: "The squad's own line.",
            next: Promise.resolve({ from: "receptionist", to: target, reason, next, history: [...history] }),
          };
        },
      },
    });
    await call.start();
    await call.untilListening();
    call.session.pushText("My invoice, please");
    await call.clock.until(() => call.of("handoff").length > 0, 30_000);
    await call.untilListening();
    expect(asked).toEqual(['billing: The workflow reached "To billing".']);
    expect(call.tts.texts).toEqual(["Front desk.", "Passing you to billing."]);
    expect(billing.tts.texts).toEqual(["Billing here."]);
    await call.session.hangup("caller_hangup");
  });

  it("opens the next assistant's own recogniser before closing the one listening, and hears the caller through it", async () => {
    const billing = billingDesk(["Billing here.", "Your invoice is paid."]);
    const nextEar = new ScriptedStt(["Is it paid?"]);
    const call = new CallHarness({
      assistant: { first_speaker: "user" },
      replies: [[toolCall("handoff_to_billing", { reason: "invoice" })]],
      handoffs: {
        targets: [{ name: "billing", description: "Invoices." }],
        request: (target, reason) => ({
          bridgeLine: null,
          next: Promise.resolve({
            from: "receptionist",
            to: target,
            reason,
            next: { settings: callSettingsOf(testAssistant()), llm: billing.llm, tts: billing.tts, stt: nextEar },
            history: [{ role: "user" as const, content: "My invoice" }],
          }),
        }),
      },
    });
    await call.start();
    call.session.pushText("My invoice");
    await call.clock.until(() => call.of("handoff").length > 0, 30_000);
    await call.untilListening();
    expect(call.stt.closed).toBe(true);
    // The caller speaks: the next assistant's recogniser hears it, and billing answers.
    await call.say();
    await call.untilListening();
    expect(nextEar.samplesReceived).toBeGreaterThan(0);
    expect(call.transcript().slice(-2)).toEqual(["user: Is it paid?", "assistant: Your invoice is paid."]);
    await call.session.hangup("caller_hangup");
  });
});
