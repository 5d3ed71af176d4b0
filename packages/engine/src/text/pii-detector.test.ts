import { describe, expect, it } from "vitest";
import { detectPii } from "./pii-detector.ts";

const kinds = (text: string) => detectPii(text).map((s) => [s.kind, s.text, s.value]);

describe("PII detector", () => {
  it("finds card numbers by Luhn, written or read out digit by digit", () => {
    expect(kinds("My card is 4111 1111 1111 1111.")).toEqual([["card", "4111 1111 1111 1111", "4111111111111111"]]);
    const spoken = "it's four one one one one one one one one one one one one one one one thanks";
    const [card] = detectPii(spoken);
    expect(card?.kind).toBe("card");
    expect(card?.value).toBe("4111111111111111");
    expect(spoken.slice(card?.start, card?.end)).toMatch(/^four one .* one$/);
    // Sixteen digits that fail Luhn are not a card.
    expect(detectPii("order 4111 1111 1111 1112").some((s) => s.kind === "card")).toBe(false);
  });

  it("finds e-mail addresses written and spoken", () => {
    expect(kinds("mail jane.doe@example.org please")).toEqual([
      ["email", "jane.doe@example.org", "jane.doe@example.org"],
    ]);
    expect(kinds("it is john dot smith at example dot com")).toEqual([
      ["email", "john dot smith at example dot com", "john.smith@example.com"],
    ]);
    expect(detectPii("we meet at noon. See you").some((s) => s.kind === "email")).toBe(false);
  });

  it("finds IBANs, SSNs and national ids by their check digits", () => {
    expect(kinds("IBAN DE89 3704 0044 0532 0130 00 thanks")).toEqual([
      ["iban", "DE89 3704 0044 0532 0130 00", "DE89370400440532013000"],
    ]);
    expect(kinds("my SSN is 123-45-6789")).toEqual([["national_id", "123-45-6789", "123456789"]]);
    expect(detectPii("social security one two three four five six seven eight nine")[0]?.kind).toBe("national_id");
    expect(kinds("DNI 12345678Z")[0]?.[0]).toBe("national_id");
    expect(kinds("NI number AB 12 34 56 C")[0]?.[0]).toBe("national_id");
  });

  it("finds phone numbers (libphonenumber-js), dates of birth and names (compromise)", () => {
    expect(kinds("call me on +44 20 7946 0958")).toEqual([["phone", "+44 20 7946 0958", "+442079460958"]]);
    expect(kinds("I was born on March 3rd, 1985")).toEqual([["date_of_birth", "March 3rd, 1985", "March 3rd, 1985"]]);
    expect(detectPii("born the third of March nineteen eighty five")[0]?.kind).toBe("date_of_birth");
    expect(detectPii("My date of birth is 03/04/1985")[0]?.text).toBe("03/04/1985");
    // An appointment is not a date of birth.
    expect(detectPii("Your appointment is on March 3rd, 2027").length).toBe(0);
    expect(kinds("Hi, this is Ada Lovelace.")).toEqual([["name", "Ada Lovelace", "Ada Lovelace"]]);
  });

  it("finds nothing in ordinary speech", () => {
    expect(detectPii("I'd like a table for four on Friday at seven please.")).toEqual([]);
  });
});

describe("PII detector, spoken forms", () => {
  it("reads digits, repeats and a country code out loud", () => {
    expect(kinds("my number is four one five five five five zero one two three")).toEqual([
      ["phone", "four one five five five five zero one two three", "+14155550123"],
    ]);
    expect(detectPii("plus one four one five double five five oh one two three")[0]?.value).toBe("+14155550123");
  });

  it("reads a year in words and an IBAN spelt letter by letter", () => {
    expect(kinds("my date of birth is the fourth of July nineteen ninety")).toEqual([
      ["date_of_birth", "the fourth of July nineteen ninety", "the fourth of July nineteen ninety"],
    ]);
    const [iban] = detectPii("IBAN G B 8 2 W E S T 1 2 3 4 5 6 9 8 7 6 5 4 3 2");
    expect([iban?.kind, iban?.value]).toEqual(["iban", "GB82WEST12345698765432"]);
  });
});
