import { describe, expect, it } from "vitest";
import { deriveKey, hashToken, SecretBox } from "./crypto.ts";

describe("SecretBox", () => {
  const box = new SecretBox(deriveKey("master secret of at least thirty-two chars", "secrets"));

  it("round-trips a secret and never stores it in the clear", () => {
    const sealed = box.encrypt("sk-live-123");
    expect(sealed).not.toContain("sk-live-123");
    expect(sealed.startsWith("v1.")).toBe(true);
    expect(box.decrypt(sealed)).toBe("sk-live-123");
    expect(box.encrypt("sk-live-123")).not.toBe(sealed);
  });

  it("refuses a tampered value or another key", () => {
    const sealed = box.encrypt("secret");
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => box.decrypt(parts.join("."))).toThrow();
    const other = new SecretBox(deriveKey("another master secret of thirty-two chars", "secrets"));
    expect(() => other.decrypt(sealed)).toThrow();
  });

  it("hashes tokens deterministically", () => {
    expect(hashToken("abc")).toBe(hashToken("abc"));
    expect(hashToken("abc")).not.toBe(hashToken("abd"));
  });
});
