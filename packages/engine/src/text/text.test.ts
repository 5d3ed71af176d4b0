import { describe, expect, it } from "vitest";
import { luhnValid, redactCardNumbers } from "./pci-redaction.ts";
import { containsPhrase, findPhrase, VOICEMAIL_PHRASES } from "./phrases.ts";
import { SentenceSplitter } from "./sentence-splitter.ts";

function split(chunks: string[]): string[] {
  const s = new SentenceSplitter();
  const out = chunks.flatMap((c) => s.push(c));
  return [...out, ...s.flush()];
}

describe("sentence splitter", () => {
  it("emits sentences as soon as they are complete", () => {
    const s = new SentenceSplitter();
    expect(s.push("Hello there")).toEqual([]);
    expect(s.push(". How are")).toEqual(["Hello there."]);
    expect(s.push(" you? I am")).toEqual(["How are you?"]);
    expect(s.flush()).toEqual(["I am"]);
  });

  it("does not split abbreviations, initials or decimals", () => {
    expect(
      split(["Dr. Smith paid $3.50 at 5 p.m. today. ", "J. R. Tolkien wrote it, e.g. ", "this one. Done!"]),
    ).toEqual(["Dr. Smith paid $3.50 at 5 p.m. today.", "J. R. Tolkien wrote it, e.g. this one.", "Done!"]);
  });

  it("waits for the character after a full stop when a token ends on it", () => {
    const s = new SentenceSplitter();
    expect(s.push("It costs 3.")).toEqual([]);
    expect(s.push("5 dollars. Next")).toEqual(["It costs 3.5 dollars."]);
  });

  it("keeps closing quotes with their sentence and splits on new lines", () => {
    expect(split(['He said "yes." Then left.', "\n- item one\n- item two"])).toEqual([
      'He said "yes."',
      "Then left.",
      "- item one",
      "- item two",
    ]);
  });

  it("breaks a very long run without punctuation at a comma", () => {
    const long = `${"word ".repeat(30)}, ${"more ".repeat(30)}`;
    const out = split([long]);
    expect(out.length).toBeGreaterThan(1);
    expect(out.join(" ").replace(/\s+/g, " ")).toBe(long.trim().replace(/\s+/g, " "));
  });
});

describe("PCI redaction", () => {
  it("redacts Luhn-valid card numbers with spaces or dashes", () => {
    expect(redactCardNumbers("my card is 4111 1111 1111 1111 thanks")).toBe("my card is [REDACTED CARD] thanks");
    expect(redactCardNumbers("5500-0000-0000-0004")).toBe("[REDACTED CARD]");
    expect(redactCardNumbers("378282246310005")).toBe("[REDACTED CARD]");
  });

  it("leaves other numbers alone", () => {
    expect(redactCardNumbers("order 4111 1111 1111 1112")).toBe("order 4111 1111 1111 1112");
    expect(redactCardNumbers("call +1 555 123 4567")).toBe("call +1 555 123 4567");
    expect(luhnValid("79927398713")).toBe(true);
  });
});

describe("phrases", () => {
  it("matches whole words regardless of case and punctuation", () => {
    expect(containsPhrase("OK, goodbye!", "goodbye")).toBe(true);
    expect(containsPhrase("goodbyes", "goodbye")).toBe(false);
    expect(findPhrase("Sorry, I can't take your call. Please leave a message.", VOICEMAIL_PHRASES)).toBe(
      "leave a message",
    );
  });
});
