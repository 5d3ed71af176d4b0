import { describe, expect, it } from "vitest";
import { checkParameters } from "./parameters-json.ts";

describe("checkParameters", () => {
  it("accepts an object schema and returns it parsed", () => {
    const text = '{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}';
    expect(checkParameters(text)).toEqual({ ok: true, schema: JSON.parse(text) });
  });

  it("explains text that does not parse", () => {
    const result = checkParameters('{"type": "object",');
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.reason).toBe("invalidJson");
  });

  it("rejects arrays, strings and schemas of other types", () => {
    expect(checkParameters("[]")).toEqual({ ok: false, reason: "notObject" });
    expect(checkParameters('"x"')).toEqual({ ok: false, reason: "notObject" });
    expect(checkParameters('{"type":"string"}')).toEqual({ ok: false, reason: "notObjectSchema" });
  });

  it("rejects properties that are not an object", () => {
    expect(checkParameters('{"type":"object","properties":[]}')).toEqual({ ok: false, reason: "badProperties" });
  });
});
