import { beforeEach, describe, expect, it, vi } from "vitest";
import { forgetReturnTo, rememberReturnTo, takeReturnTo } from "./return-to.ts";

/** The tests run in Node: a tab's session storage as a map. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe("the origin kept through sign-in", () => {
  beforeEach(() => {
    vi.stubGlobal("sessionStorage", memoryStorage());
  });

  it("returns the remembered path once, then the home page", () => {
    rememberReturnTo("/functions?tab=2");
    expect(takeReturnTo()).toBe("/functions?tab=2");
    expect(takeReturnTo()).toBe("/home");
  });

  it("never sends the visitor to another site or back to a sign-in page", () => {
    for (const unsafe of ["//evil.example/x", "https://evil.example", "/\\evil.example", "/auth/login", "functions"]) {
      rememberReturnTo(unsafe);
      expect(takeReturnTo(), unsafe).toBe("/home");
    }
  });

  it("starts at the home page after signing out, then remembers origins again", () => {
    rememberReturnTo("/functions");
    forgetReturnTo();
    // The page signed out from bounces to sign-in with itself as the origin: not kept.
    rememberReturnTo("/profile?linked=google");
    expect(takeReturnTo()).toBe("/home");
    rememberReturnTo("/call-logs");
    expect(takeReturnTo()).toBe("/call-logs");
  });
});
