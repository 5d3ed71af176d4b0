import { describe, expect, it } from "vitest";
import { textOn } from "./styles.ts";
import { textsFor } from "./texts.ts";
import { applyTranscript, cutAssistant, type Line } from "./transcript.ts";

describe("the widget's transcript", () => {
  it("replaces a partial in place and joins the assistant's sentences of one answer", () => {
    let lines: Line[] = [];
    lines = applyTranscript(lines, { role: "user", text: "what time", final: false });
    lines = applyTranscript(lines, { role: "user", text: "what time do you open", final: true });
    lines = applyTranscript(lines, { role: "assistant", text: "We open at nine.", final: true });
    lines = applyTranscript(lines, { role: "assistant", text: "See you", final: false });
    expect(lines.map((l) => [l.role, l.text, l.final])).toEqual([
      ["user", "what time do you open", true],
      ["assistant", "We open at nine. See you", false],
    ]);
    expect(cutAssistant(lines, "See")).toEqual([
      lines[0],
      { role: "assistant", text: "We open at nine. See…", final: true },
    ]);
  });
});

describe("the widget's look and words", () => {
  it("writes white on dark colours and black on light ones", () => {
    expect(textOn("#2e7d32")).toBe("#fff");
    expect(textOn("#ffeb3b")).toBe("#111");
  });

  it("has every text in every language, falling back to English", () => {
    const english = textsFor("en");
    for (const code of ["ar", "es", "fr", "de", "hi", "pt"]) {
      const texts = textsFor(code);
      expect(Object.keys(texts)).toEqual(Object.keys(english));
      expect(Object.keys(texts.mic)).toEqual(Object.keys(english.mic));
      expect(texts.connecting).not.toBe(english.connecting);
    }
    expect(textsFor("xx")).toBe(english);
  });
});
