import { describe, expect, it } from "vitest";
import { applyTranscript, truncateAssistant } from "./chat-log.ts";

describe("chat panel lines", () => {
  it("replaces the caller's partial until the final arrives", () => {
    let lines = applyTranscript([], { role: "user", text: "book a", final: false });
    lines = applyTranscript(lines, { role: "user", text: "book a table", final: false });
    expect(lines).toHaveLength(1);
    lines = applyTranscript(lines, { role: "user", text: "Book a table for two.", final: true });
    expect(lines).toMatchObject([{ role: "user", text: "Book a table for two.", final: true }]);
    lines = applyTranscript(lines, { role: "user", text: "and", final: false });
    expect(lines).toHaveLength(2);
  });

  it("joins an answer's sentences into one assistant bubble", () => {
    let lines = applyTranscript([], { role: "user", text: "Hi", final: true });
    lines = applyTranscript(lines, { role: "assistant", text: "Hello!", final: true });
    lines = applyTranscript(lines, { role: "assistant", text: "How can I help?", final: true });
    expect(lines.map((l) => l.text)).toEqual(["Hi", "Hello! How can I help?"]);
  });

  it("shows each assistant sentence as it starts playing, in the answer's bubble", () => {
    let lines = applyTranscript([], { role: "user", text: "Hi", final: true });
    lines = applyTranscript(lines, { role: "assistant", text: "Hello!", final: false });
    expect(lines.at(-1)).toMatchObject({ text: "Hello!", final: false });
    lines = applyTranscript(lines, { role: "assistant", text: "Hello!", final: true });
    lines = applyTranscript(lines, { role: "assistant", text: "How can", final: false });
    expect(lines.at(-1)).toMatchObject({ text: "Hello! How can", final: false });
    lines = applyTranscript(lines, { role: "assistant", text: "How can I help?", final: false });
    lines = applyTranscript(lines, { role: "assistant", text: "How can I help?", final: true });
    expect(lines.map((l) => [l.text, l.final])).toEqual([
      ["Hi", true],
      ["Hello! How can I help?", true],
    ]);
  });

  it("keeps the sentences already spoken when the one playing is cut off", () => {
    let lines = applyTranscript([], { role: "assistant", text: "We open at nine.", final: true });
    lines = applyTranscript(lines, { role: "assistant", text: "On Sundays we open at ten.", final: false });
    expect(truncateAssistant(lines, "On Sundays")[0]?.text).toBe("We open at nine. On Sundays…");
  });

  it("ignores empty text and truncates after an interruption", () => {
    let lines = applyTranscript([], { role: "assistant", text: "  ", final: true });
    expect(lines).toEqual([]);
    lines = applyTranscript(lines, { role: "assistant", text: "Our opening hours are nine to five.", final: false });
    expect(truncateAssistant(lines, "Our opening hours")[0]?.text).toBe("Our opening hours…");
  });

  it("drops a sentence of which nothing was heard, instead of leaving a lone ellipsis", () => {
    const lines = applyTranscript([], { role: "user", text: "Hi", final: true });
    const speaking = applyTranscript(lines, { role: "assistant", text: "Hello, this is the greeter.", final: false });
    expect(truncateAssistant(speaking, "")).toEqual(lines);
  });
});

describe("an interruption that cut no bubble (issue 26, item 16)", () => {
  it("keeps a greeting spoken whole when the caller barges in while the assistant thinks", () => {
    let lines = applyTranscript([], { role: "assistant", text: "Hello, this is the front desk.", final: false });
    lines = applyTranscript(lines, { role: "assistant", text: "Hello, this is the front desk.", final: true });
    lines = applyTranscript(lines, { role: "user", text: "Opening hours?", final: true });
    // The reply had not started playing: the engine reports an interruption of which nothing was heard.
    expect(truncateAssistant(lines, "").map((l) => l.text)).toEqual([
      "Hello, this is the front desk.",
      "Opening hours?",
    ]);
  });

  it("marks the cut end of a reply whose final holds what was heard, keeping its earlier sentences", () => {
    let lines = applyTranscript([], { role: "assistant", text: "We open at nine.", final: true });
    lines = applyTranscript(lines, { role: "assistant", text: "On Sundays we open at ten.", final: false });
    lines = applyTranscript(lines, { role: "assistant", text: "On Sundays", final: true });
    expect(truncateAssistant(lines, "On Sundays").map((l) => l.text)).toEqual(["We open at nine. On Sundays…"]);
  });

  it("keeps the sentences heard whole when nothing of the cut one was heard", () => {
    let lines = applyTranscript([], { role: "assistant", text: "Let me check.", final: true });
    lines = applyTranscript(lines, { role: "assistant", text: "We open at nine.", final: false });
    expect(truncateAssistant(lines, "")).toMatchObject([{ text: "Let me check.", final: true }]);
  });

  it("leaves an older reply alone when the heard words are not its ending", () => {
    const lines = applyTranscript([], { role: "assistant", text: "We open at nine.", final: true });
    expect(truncateAssistant(lines, "Goodbye")).toEqual(lines);
  });
});
