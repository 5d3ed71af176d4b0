import { describe, expect, it } from "vitest";
import { FakeTts, ScriptedLlm, toolCall } from "../../testing/fake-providers.ts";
import { VirtualClock } from "../../testing/virtual-clock.ts";
import type { ChatMessage } from "../providers/types.ts";
import { ASSISTANT_DONE_SILENCE_MS, PERSONA_WAIT_MS } from "./simulated-caller.ts";
import { startCall } from "./test-support/run-call.ts";

const persona = "You are Ana, booking a table for two at eight tonight.";

/** Roles and words of a request's conversation, the system prompt left out. */
const conversation = (messages: ChatMessage[]) =>
  messages.filter((m) => m.role !== "system").map((m) => [m.role, "content" in m ? m.content : ""]);

describe("a persona caller", () => {
  it("plays its persona from the assistant's words and hangs up through end_call once the reply is heard", async () => {
    const llm = new ScriptedLlm([
      "Hi, I'd like a table for two at eight.",
      [{ type: "text", text: "Perfect, thanks. Bye!" }, toolCall("end_call")],
    ]);
    const tts = new FakeTts();
    const call = startCall({
      plan: { mode: "persona", persona, language: "en-GB" },
      assistant: { greetingMs: 800, lines: ["Luigi's, how can I help?", "Booked: two at eight.", "Goodbye!"] },
      llm,
      tts,
    });
    const report = await call.finish();
    expect(report.end).toBe("finished");
    expect(report.turns.map((t) => t.text)).toEqual([
      "Hi, I'd like a table for two at eight.",
      "Perfect, thanks. Bye!",
    ]);
    expect(tts.texts).toEqual(report.turns.map((t) => t.text));
    // The assistant's words are the model's user turns, the caller's own lines its assistant turns.
    expect(conversation(llm.requests[0]?.messages ?? [])).toEqual([["user", "Luigi's, how can I help?"]]);
    expect(conversation(llm.requests[1]?.messages ?? [])).toEqual([
      ["user", "Luigi's, how can I help?"],
      ["assistant", "Hi, I'd like a table for two at eight."],
      ["user", "Booked: two at eight."],
    ]);
    const system = llm.requests[0]?.messages[0];
    expect(system?.role).toBe("system");
    expect(system?.content).toContain(persona);
    expect(system?.content).toContain("British English");
    expect(llm.requests[0]?.tools?.map((t) => t.name)).toEqual(["end_call"]);
    // It said goodbye, heard the assistant's goodbye out, then hung up.
    const goodbye = call.assistant.assistantBursts()[2];
    expect(call.assistant.hungUpAt).toBeCloseTo((goodbye?.end ?? 0) + ASSISTANT_DONE_SILENCE_MS, -1.5);
  });

  it("speaks first into silence when the assistant waits for it", async () => {
    const llm = new ScriptedLlm(["Hello?", [toolCall("end_call")]]);
    const call = startCall({ plan: { mode: "persona", persona }, assistant: { greetingMs: 0 }, llm });
    const report = await call.finish();
    expect(conversation(llm.requests[0]?.messages ?? [])).toEqual([["user", "[silence]"]]);
    expect(report.turns[0]?.startedAtMs).toBeCloseTo(PERSONA_WAIT_MS, -1.5);
    expect(report.end).toBe("finished");
  });

  it("needs a model", () => {
    expect(() => startCall({ plan: { mode: "persona", persona } })).toThrow("A persona caller needs a model");
  });

  it("hangs up at once on an end_call without words, an empty reply or [HANGUP]", async () => {
    for (const ending of [[toolCall("end_call")], "", "[HANGUP]"]) {
      const llm = new ScriptedLlm(["Is this the bakery?", ending]);
      const call = startCall({
        plan: { mode: "persona", persona },
        assistant: { greetingMs: 600, lines: ["Hello.", "Yes, it is."] },
        llm,
      });
      const report = await call.finish();
      const reply = call.assistant.assistantBursts()[1];
      expect(report.end).toBe("finished");
      expect(report.turns).toHaveLength(1);
      // No words to wait on: it hangs up as soon as the model said so.
      expect(call.assistant.hungUpAt).toBeCloseTo(
        (reply?.end ?? 0) + ASSISTANT_DONE_SILENCE_MS + PERSONA_WAIT_MS,
        -1.5,
      );
    }
  });

  it("ends after max turns, once the last reply is heard", async () => {
    const llm = new ScriptedLlm([], { fallback: "Tell me more." });
    const call = startCall({ plan: { mode: "persona", persona, maxTurns: 3 }, assistant: { greetingMs: 600 }, llm });
    const report = await call.finish();
    expect(report.end).toBe("max_turns");
    expect(report.turns).toHaveLength(3);
    expect(llm.requests).toHaveLength(3);
    const lastReply = call.assistant.assistantBursts()[3];
    expect(call.assistant.hungUpAt).toBeCloseTo((lastReply?.end ?? 0) + ASSISTANT_DONE_SILENCE_MS, -1.5);
  });

  it("does not ask its model on a silent turn", async () => {
    const llm = new ScriptedLlm(["Hello.", "Are you there?", [toolCall("end_call")]]);
    const call = startCall({
      plan: { mode: "persona", persona, behaviours: { silent_turns: [2] } },
      assistant: { greetingMs: 600, silencePromptAfterMs: 3000, lines: ["Hi.", "Yes?", "Still there?", "Yes, go on."] },
      llm,
    });
    const report = await call.finish();
    expect(report.turns.map((t) => [t.silent, t.text])).toEqual([
      [false, "Hello."],
      [true, ""],
      [false, "Are you there?"],
    ]);
    // The replies heard across the silent turn reach the model as one user message.
    expect(conversation(llm.requests[1]?.messages ?? [])).toEqual([
      ["user", "Hi."],
      ["assistant", "Hello."],
      ["user", "Yes? Still there?"],
    ]);
  });

  it("fails, hanging up, when its model fails, with the secret redacted", async () => {
    const llm = new ScriptedLlm([
      () => {
        throw new Error("401 Unauthorized: Bearer sk-live-abcdefghijklmnopqrstuvwxyz");
      },
    ]);
    const call = startCall({ plan: { mode: "persona", persona }, assistant: { greetingMs: 600 }, llm });
    const report = await call.finish();
    expect(report.end).toBe("failed");
    expect(report.error).toContain("The caller's model failed: 401 Unauthorized");
    expect(report.error).not.toContain("abcdefghijklmnop");
    expect(report.turns).toEqual([]);
    expect(call.assistant.hungUpAt).not.toBeNull();
  });

  it("gives the assistant's words a moment to arrive after its reply was heard", async () => {
    const llm = new ScriptedLlm(["Hello?", [toolCall("end_call")]]);
    // The assistant speaks, but its transcript never reaches the caller.
    const call = startCall({ plan: { mode: "persona", persona }, assistant: { greetingMs: 600 }, llm });
    const report = await call.finish();
    const greeting = call.assistant.assistantBursts()[0];
    expect(report.turns[0]?.startedAtMs).toBeCloseTo((greeting?.end ?? 0) + ASSISTANT_DONE_SILENCE_MS + 1000, -1.5);
    expect(conversation(llm.requests[0]?.messages ?? [])).toEqual([["user", "[silence]"]]);
  });

  it("stops while its model is thinking without saying anything", async () => {
    const clock = new VirtualClock();
    const llm = new ScriptedLlm(["A long thought that arrives slowly"], { clock, tokenDelayMs: 500 });
    const slow = startCall({ plan: { mode: "persona", persona }, assistant: { greetingMs: 600 }, llm, clock });
    await slow.clock.until(() => llm.requests.length === 1);
    slow.caller.stop();
    const report = await slow.finish();
    expect(report.end).toBe("stopped");
    expect(report.turns).toEqual([]);
    expect(slow.assistant.callerFrames.some((f) => f.audible)).toBe(false);
  });
});

describe("the persona's instructions", () => {
  it("name a language the model may not know by its tag", async () => {
    const llm = new ScriptedLlm([[toolCall("end_call")]]);
    const call = startCall({ plan: { mode: "persona", persona, language: "multi" }, llm });
    await call.finish();
    expect(llm.requests[0]?.messages[0]?.content).toContain("Speak the language the assistant speaks (multi).");
  });
});
