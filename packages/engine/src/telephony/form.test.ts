import { describe, expect, it } from "vitest";
import { encodeForm, headerValue, parseForm, stringRecord } from "./form.ts";
import { webhookFields } from "./webhook-fields.ts";
import { xmlAttributes, xmlResponse } from "./xml.ts";

describe("webhook bodies", () => {
  it("parses forms and JSON alike", () => {
    expect(parseForm("CallSid=CA1&From=%2B1555&Empty=")).toEqual({ CallSid: "CA1", From: "+1555", Empty: "" });
    expect(webhookFields('{"CallSid":"CA1","Duration":12,"nested":{}}')).toEqual({ CallSid: "CA1", Duration: "12" });
    expect(webhookFields("CallSid=CA1")).toEqual({ CallSid: "CA1" });
    expect(webhookFields("{broken")).toEqual({});
  });

  it("repeats array fields and leaves out undefined ones", () => {
    expect(encodeForm({ A: "1", B: ["x", "y"], C: undefined }).toString()).toBe("A=1&B=x&B=y");
  });

  it("finds headers whatever their case", () => {
    expect(headerValue({ "X-Twilio-Signature": "s" }, "x-twilio-signature")).toBe("s");
    expect(headerValue({}, "x")).toBeUndefined();
  });

  it("keeps only scalar values of a record", () => {
    expect(stringRecord({ a: "1", b: 2, c: true, d: null, e: {} })).toEqual({ a: "1", b: "2", c: "true" });
    expect(stringRecord("nope")).toEqual({});
  });
});

describe("markup", () => {
  it("escapes attribute values and skips unset attributes", () => {
    expect(xmlAttributes({ url: 'wss://h/p?a=1&b="2"', name: undefined, x: "<'>" })).toBe(
      ' url="wss://h/p?a=1&amp;b=&quot;2&quot;" x="&lt;&apos;&gt;"',
    );
    expect(xmlResponse("<Hangup/>")).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>');
  });
});
