import { describe, expect, it } from "vitest";
import { normaliseNumber } from "./number-format.ts";

describe("normaliseNumber", () => {
  it("reads international numbers whatever their punctuation", () => {
    expect(normaliseNumber("+1 (415) 555-0123")).toEqual({ e164: "+14155550123", country: "US" });
    expect(normaliseNumber("+44 20 7183 8750")).toEqual({ e164: "+442071838750", country: "GB" });
  });

  it("reads a national number in the given country", () => {
    expect(normaliseNumber("020 7183 8750", "GB")).toEqual({ e164: "+442071838750", country: "GB" });
    expect(normaliseNumber("(415) 555-0123", "US")?.e164).toBe("+14155550123");
  });

  it("keeps test and fictional ranges vendors hand out", () => {
    expect(normaliseNumber("+15005550006")?.e164).toBe("+15005550006");
    expect(normaliseNumber("+447700900123")?.e164).toBe("+447700900123");
  });

  it("refuses what cannot be a phone number", () => {
    for (const input of ["", "12345", "not a number", "+999 123", "+1 415 555", "4155550123"]) {
      expect(normaliseNumber(input), input).toBeNull();
    }
    // An unknown country is no region: a national number stays unreadable.
    expect(normaliseNumber("020 7183 8750", "ZZ")).toBeNull();
  });
});
