import { describe, expect, it } from "vitest";
import { KeyForm, toCreateBody } from "./key-form.ts";

describe("API key form", () => {
  const now = new Date("2026-01-01T12:00:00Z");

  it("turns a number of days into an expiry that many days ahead", () => {
    const values = KeyForm.parse({ name: "CI", scopes: ["read"], expiry: "30", customDate: "" });
    expect(toCreateBody(values, now)).toEqual({
      name: "CI",
      scopes: ["read"],
      expires_at: "2026-01-31T12:00:00.000Z",
    });
  });

  it("sends null for a key that never expires", () => {
    const values = KeyForm.parse({ name: "CI", scopes: ["read", "calls"], expiry: "never", customDate: "" });
    expect(toCreateBody(values, now).expires_at).toBeNull();
  });

  it("needs a date for a custom expiry and at least one scope", () => {
    expect(KeyForm.safeParse({ name: "CI", scopes: ["read"], expiry: "custom", customDate: "" }).success).toBe(false);
    expect(KeyForm.safeParse({ name: "CI", scopes: [], expiry: "never", customDate: "" }).success).toBe(false);
  });
});
