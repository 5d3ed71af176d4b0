import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api-error.ts";
import { isRestoreInterrupted } from "./restore-interrupted.ts";

const networkError = new ApiError(0, "Network error", "Failed to fetch");

describe("an interrupted session restore", () => {
  it("is a network error while the page is being left, or an aborted request", () => {
    expect(isRestoreInterrupted(networkError, true)).toBe(true);
    expect(isRestoreInterrupted(new DOMException("aborted", "AbortError"), false)).toBe(true);
    const chunkCutOff = new TypeError("Failed to fetch dynamically imported module: /assets/session-schemas.js");
    expect(isRestoreInterrupted(chunkCutOff, true)).toBe(true);
    expect(isRestoreInterrupted(chunkCutOff, false)).toBe(false);
  });

  it("is not a network error on a page that stays, nor a refusal from the server", () => {
    expect(isRestoreInterrupted(networkError, false)).toBe(false);
    expect(isRestoreInterrupted(new ApiError(401, "Authentication failed", ""), true)).toBe(false);
    expect(isRestoreInterrupted(new Error("boom"), true)).toBe(false);
  });
});
