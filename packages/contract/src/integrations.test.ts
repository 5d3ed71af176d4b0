import { describe, expect, it } from "vitest";
import { maskSecret } from "./integrations.ts";

/** How many characters of the secret a masked value shows. */
const shown = (masked: string) => masked.replace(/[…•]/g, "").length;

describe("maskSecret", () => {
  it("shows dots for short secrets", () => {
    expect(maskSecret("")).toBe("••••");
    expect(maskSecret("abc123xyz")).toBe("••••");
    expect(maskSecret("abcdefghijk")).toBe("••••");
  });

  it("shows only the last four characters of a middling secret", () => {
    expect(maskSecret("abcdefghijkl")).toBe("…ijkl");
    expect(maskSecret("sk-owner-key-1234")).toBe("…1234");
  });

  it("keeps a long key's prefix and last four characters", () => {
    expect(maskSecret("sk-e2e-0123456789abcd")).toBe("sk-…abcd");
    expect(maskSecret("super-secret-auth-token-wxyz")).toBe("sup…wxyz");
  });

  it("never reveals more than about a third of any secret", () => {
    for (let length = 0; length <= 64; length += 1) {
      const secret = "x".repeat(length);
      expect(shown(maskSecret(secret)), `length ${length}`).toBeLessThanOrEqual(Math.ceil(length * 0.35));
    }
  });
});
