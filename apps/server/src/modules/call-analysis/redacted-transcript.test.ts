import { describe, expect, it } from "vitest";
import { redactedTranscript } from "./redacted-transcript.ts";

describe("the transcript an analysis reads with PII redaction on", () => {
  it("masks a transcript stored in clear, with one placeholder per value across its lines", () => {
    const lines = redactedTranscript([
      { role: "user", text: "My e-mail is john at example dot com and my card 4111 1111 1111 1111.", at_ms: 100 },
      { role: "assistant", text: "I'll write to john@example.com.", at_ms: 900 },
      { role: "user", text: "My e-mail is [EMAIL_1].", at_ms: 1500 },
    ]);
    expect(lines.map((l) => l.text)).toEqual([
      "My e-mail is [EMAIL_1] and my card [CARD_1].",
      "I'll write to [EMAIL_1].",
      "My e-mail is [EMAIL_1].",
    ]);
    expect(lines[1]).toMatchObject({ role: "assistant", at_ms: 900 });
  });
});
