import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { callDestinationForm, destinationHelpKey } from "./call-number-dialog.tsx";

const messages = {
  required: "Enter the number",
  invalid: "Use + and the country code",
  extensionInvalid: "2 to 10 digits",
};

/** The destination the dialog would send, or the message it shows under the field. */
function check(provider: Parameters<typeof callDestinationForm>[0], typed: string): string {
  const result = callDestinationForm(provider, messages).safeParse({ destination_number: typed });
  return result.success ? `sends ${result.data.destination_number}` : (result.error.issues[0]?.message ?? "");
}

describe("the call dialog's destination", () => {
  it("refuses a number without + and the country code from a carrier's number, as its hint says", () => {
    expect(check("twilio", "12345")).toBe(messages.invalid);
    expect(check("twilio", "415 555 0123")).toBe(messages.invalid);
    expect(check("twilio", "+0123456789")).toBe(messages.invalid);
    expect(check("twilio", "+1234567890123456")).toBe(messages.invalid);
    expect(check("twilio", "sip:desk@example.com")).toBe(messages.invalid);
    expect(check("twilio", "  ")).toBe(messages.required);
  });

  it("sends an E.164 number without the separators people type", () => {
    expect(check("twilio", " +1 (415) 555-0123 ")).toBe("sends +14155550123");
    expect(check("sip_trunk", "+44 20 7946 0958")).toBe("sends +442079460958");
  });

  it("lets a SIP trunk dial a SIP URI as typed, but not a short number", () => {
    expect(check("sip_trunk", "sip:desk@pbx.example.com")).toBe("sends sip:desk@pbx.example.com");
    expect(check("sip_trunk", "12345")).toBe(messages.invalid);
  });

  it("lets an extension dial another extension, a SIP URI or a number", () => {
    expect(check("extension", "1002")).toBe("sends 1002");
    expect(check("extension", "sip:1002@example.test")).toBe("sends sip:1002@example.test");
    expect(check("extension", "+14155550123")).toBe("sends +14155550123");
    expect(check("extension", "desk")).toBe(messages.extensionInvalid);
  });
});

describe("the destination field's hint", () => {
  const localesDir = path.join(import.meta.dirname, "..", "locales");
  const bundles = readdirSync(localesDir).map((file) => ({
    code: file.replace(".json", ""),
    strings: JSON.parse(readFileSync(path.join(localesDir, file), "utf8")) as {
      call: Record<string, string>;
      rules: Record<string, string>;
    },
  }));

  it("tells an extension what it may dial, in every language, rather than showing an error sentence", () => {
    expect(destinationHelpKey("extension")).toBe("call.extensionHelp");
    expect(destinationHelpKey("twilio")).toBe("call.destinationHelp");
    for (const { code, strings } of bundles) {
      const hint = strings.call.extensionHelp;
      expect(hint, code).toMatch(/SIP/);
      expect(hint, code).not.toBe(strings.rules.extInvalid);
    }
  });
});
