import pino from "pino";
import { describe, expect, it } from "vitest";
import { createMailer } from "./mailer.ts";

describe("the console mailer (no SMTP_URL)", () => {
  it("prints each email as a readable block with real line breaks, not an escaped JSON line", async () => {
    const printed: string[] = [];
    const mailer = createMailer({
      smtpUrl: undefined,
      from: "parley@example.com",
      log: pino({ level: "silent" }),
      print: (block) => printed.push(block),
    });
    await mailer.send({
      to: "ada@example.com",
      subject: "Your Parley sign-in link",
      text: "Use this link to sign in to Parley:\nhttp://localhost:3000/auth/magic-link-callback?token=abc",
    });
    const [block = ""] = printed;
    expect(block).not.toContain("\\n");
    expect(block.split("\n")).toEqual(
      expect.arrayContaining([
        "To: ada@example.com",
        "Subject: Your Parley sign-in link",
        "Use this link to sign in to Parley:",
        "http://localhost:3000/auth/magic-link-callback?token=abc",
      ]),
    );
    expect(() => JSON.parse(block)).toThrow();
  });
});
