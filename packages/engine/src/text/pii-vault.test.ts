import { describe, expect, it } from "vitest";
import { PiiVault, StreamUnmasker } from "./pii-vault.ts";

describe("PII vault", () => {
  it("masks with placeholders that stay the same for the call, and un-masks them", () => {
    const vault = new PiiVault();
    const masked = vault.mask("Card 4111 1111 1111 1111, mail john at example dot com.");
    expect(masked).toBe("Card [CARD_1], mail [EMAIL_1].");
    expect(vault.mask("again: john@example.com and 4111111111111111")).toBe("again: [EMAIL_1] and [CARD_1]");
    expect(vault.mask("jane@example.org")).toBe("[EMAIL_2]");
    expect(vault.unmask("Sending it to [EMAIL_1], card [CARD_1], [EMAIL_9].")).toBe(
      "Sending it to john@example.com, card 4111111111111111, [EMAIL_9].",
    );
  });

  it("masks a known value however the assistant repeats it, whole words only", () => {
    const vault = new PiiVault();
    vault.mask("I'm Ada Lovelace");
    expect(vault.mask("Thanks ADA LOVELACE!")).toBe("Thanks [NAME_1]!");
    expect(vault.mask("I said Ada Lovelace's adamant.")).toBe("I said [NAME_1]'s adamant.");
  });

  it("un-masks a streamed reply whose placeholder is split across chunks", () => {
    const vault = new PiiVault();
    vault.mask("john@example.com");
    const stream = new StreamUnmasker(vault);
    const out = ["I'll write to [EM", "AIL", "_1] now. [", "sic]"].map((c) => stream.push(c)).join("") + stream.flush();
    expect(out).toBe("I'll write to john@example.com now. [sic]");
  });
});
