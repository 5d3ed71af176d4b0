import { describe, expect, it } from "vitest";
import { signedInWithOtherAddress } from "./invited-address.ts";

describe("signedInWithOtherAddress", () => {
  it("compares the signed-in and the invited address case-insensitively", () => {
    expect(signedInWithOtherAddress("someone@example.com", "invited@example.com")).toBe(true);
    expect(signedInWithOtherAddress("Invited@Example.com", "invited@example.com")).toBe(false);
  });

  it("says nothing while either address is unknown", () => {
    expect(signedInWithOtherAddress(undefined, "invited@example.com")).toBe(false);
    expect(signedInWithOtherAddress("someone@example.com", undefined)).toBe(false);
  });
});
