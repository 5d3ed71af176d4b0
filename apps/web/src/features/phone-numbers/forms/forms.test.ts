import { PHONE_NUMBER_TEXTS } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { createNumberDefaults, createNumberForm, toCreateBody } from "./create-number-form.ts";
import { compactNumber, e164Problem, flagOf, looksLikePhoneNumber } from "./number-rules.ts";
import { extensionForm, importForm, messagingForm, toImportBody, toMessagingBody } from "./other-forms.ts";

const messages = {
  numberRequired: "Enter the phone number",
  numberInvalid: "Not a phone number",
  countryNeeded: "Choose the country",
  sipHostRequired: "SIP server is required",
  usernameRequired: "Username is required",
  ipInvalid: "Not an address:",
};
const form = createNumberForm(messages);
const errorsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));

describe("phone number rules", () => {
  it("forgive separators and refuse what can never be a number", () => {
    expect(compactNumber(" +1 (415) 555-0123 ")).toBe("+14155550123");
    expect(looksLikePhoneNumber("020 7946 0958")).toBe(true);
    expect(looksLikePhoneNumber("+1 415 555 0123")).toBe(true);
    expect(looksLikePhoneNumber("call me")).toBe(false);
    expect(looksLikePhoneNumber("+12")).toBe(false);
    expect(looksLikePhoneNumber("+1234567890123456")).toBe(false);
  });

  it("check messaging numbers for E.164 with the contract's text (spec §5)", () => {
    expect(e164Problem("+44 20 7946 0958")).toBeNull();
    expect(e164Problem("020 7946 0958")).toBe(PHONE_NUMBER_TEXTS.whatsappInvalidNumber);
    expect(e164Problem("+0123456789")).toBe(PHONE_NUMBER_TEXTS.whatsappInvalidNumber);
    expect(e164Problem("+1234567890123456")).toBe(PHONE_NUMBER_TEXTS.whatsappInvalidNumber);
  });

  it("draw a country's flag from its code", () => {
    expect(flagOf("gb")).toBe("🇬🇧");
    expect(flagOf(null)).toBe("");
    expect(flagOf("GBR")).toBe("");
  });
});

describe("create number form", () => {
  const own = { ...createNumberDefaults("twilio"), number: "+1 415 555 0123" };

  it("needs the country when the number has no country code", () => {
    expect(errorsOf(form.safeParse({ ...own, number: "415 555 0123" }))).toEqual({ country: messages.countryNeeded });
    expect(form.safeParse({ ...own, number: "415 555 0123", country: "US" }).success).toBe(true);
    expect(errorsOf(form.safeParse({ ...own, number: "" }))).toMatchObject({ number: messages.numberRequired });
    expect(errorsOf(form.safeParse({ ...own, number: "abc" }))).toMatchObject({ number: messages.numberInvalid });
  });

  it("sends a vendor number with its integration, the number without separators", () => {
    const values = form.parse({ ...own, integration_id: "5f0c6c1e-3d1e-4c55-9f39-2a4f3b1f0a01", agent_id: "" });
    expect(toCreateBody(values)).toEqual({
      number: "+14155550123",
      friendly_name: "",
      country: undefined,
      provider: "twilio",
      integration_id: "5f0c6c1e-3d1e-4c55-9f39-2a4f3b1f0a01",
      agent_id: null,
      outbound_agent_id: null,
    });
  });

  it("needs a trunk's server, a username to register, and carrier addresses that are addresses", () => {
    const trunk = { ...own, kind: "sip_trunk" as const };
    expect(errorsOf(form.safeParse({ ...trunk, register: true, allowed_ips: "10.0.0.1, sip.carrier" }))).toEqual({
      sip_host: messages.sipHostRequired,
      username: messages.usernameRequired,
      allowed_ips: "Not an address: sip.carrier",
    });
    const values = form.parse({
      ...trunk,
      sip_host: "sip.carrier.example:5060",
      allowed_ips: "203.0.113.5\n198.51.100.0/24",
    });
    expect(toCreateBody(values)).toMatchObject({
      provider: "sip_trunk",
      sip_trunk: {
        sip_host: "sip.carrier.example:5060",
        transport: "udp",
        username: "",
        password: undefined,
        register: false,
        allowed_ips: ["203.0.113.5", "198.51.100.0/24"],
      },
    });
  });
});

describe("import form", () => {
  const importMessages = { chooseIntegration: "Choose one", fieldRequired: (label: string) => `${label} is required` };
  const fields = [
    { name: "account_sid", label: "Account SID", optional: false },
    { name: "base_url", label: "Base URL", optional: true },
  ];
  const base = { provider: "twilio" as const, integration_id: "", credentials: {}, agent_id: "", fields };

  it("needs a saved integration, or every required credential", () => {
    expect(errorsOf(importForm(importMessages).safeParse({ ...base, source: "saved" }))).toEqual({
      integration_id: "Choose one",
    });
    expect(errorsOf(importForm(importMessages).safeParse({ ...base, source: "typed" }))).toEqual({
      "credentials.account_sid": "Account SID is required",
    });
  });

  it("sends the integration id, or only the filled credentials", () => {
    const id = "5f0c6c1e-3d1e-4c55-9f39-2a4f3b1f0a01";
    expect(toImportBody({ ...base, source: "saved", integration_id: id })).toEqual({
      provider: "twilio",
      integration_id: id,
      agent_id: null,
    });
    expect(
      toImportBody({ ...base, source: "typed", credentials: { account_sid: " AC1 ", base_url: "", stray: "x" } }),
    ).toEqual({ provider: "twilio", credentials: { account_sid: "AC1" }, agent_id: null });
  });
});

describe("extension, messaging and call forms", () => {
  it("take 2 to 10 digits and a SIP domain", () => {
    const form = extensionForm({ extInvalid: "digits", domainInvalid: "domain" });
    expect(form.parse({ ext: "1001", domain: "SIP.Example.com", friendly_name: "", agent_id: "" }).domain).toBe(
      "sip.example.com",
    );
    expect(errorsOf(form.safeParse({ ext: "1", domain: "not a domain", friendly_name: "", agent_id: "" }))).toEqual({
      ext: "digits",
      domain: "domain",
    });
  });

  it("refuse a messaging number that is not E.164, and send it compact", () => {
    const values = {
      number: "+1 415 555 0123",
      access_token: "EAAG",
      phone_number_id: "123456",
      business_account_id: "654321",
      app_secret: "",
      friendly_name: "",
      agent_id: "",
    };
    expect(toMessagingBody(messagingForm.parse(values))).toEqual({
      ...values,
      number: "+14155550123",
      app_secret: undefined,
      agent_id: null,
    });
    expect(errorsOf(messagingForm.safeParse({ ...values, number: "4155550123", phone_number_id: "abc" }))).toEqual({
      number: PHONE_NUMBER_TEXTS.whatsappInvalidNumber,
      phone_number_id: "Enter the numeric Phone Number ID",
    });
  });
});
