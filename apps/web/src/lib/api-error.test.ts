import { describe, expect, it } from "vitest";
import { messageForStatus, serverErrorText, toApiError } from "./api-error.ts";

describe("serverErrorText", () => {
  it("reads detail with a leading three-digit prefix stripped, else message, else error", () => {
    expect(serverErrorText({ detail: "404: Agent not found" })).toBe("Agent not found");
    expect(serverErrorText({ detail: "Plain detail" })).toBe("Plain detail");
    expect(serverErrorText({ message: "From message" })).toBe("From message");
    expect(serverErrorText({ error: "From error" })).toBe("From error");
    expect(serverErrorText({ detail: "", message: "fallback" })).toBe("fallback");
    expect(serverErrorText(undefined)).toBe("");
  });
});

describe("messageForStatus (spec §8)", () => {
  const rows: [number, RegExp][] = [
    [400, /^Request validation failed: bad field$/],
    [401, /^Authentication failed/],
    [403, /^Access denied/],
    [404, /^Service not found/],
    [422, /^Validation error: bad field$/],
    [429, /^Too many requests/],
    [500, /^Server error/],
    [502, /^Service temporarily unavailable/],
    [503, /^Service temporarily unavailable/],
    [504, /^Service temporarily unavailable/],
    [418, /^Request failed \(418\): bad field$/],
    [0, /^Network error/],
    [-1, /^An unexpected error occurred/],
  ];
  it.each(rows)("maps status %i", (status, expected) => {
    expect(messageForStatus(status, "bad field")).toMatch(expected);
  });

  it("keeps the status and the server's detail on the error", () => {
    const error = toApiError(422, { detail: "body.email: Invalid email" });
    expect(error.status).toBe(422);
    expect(error.detail).toBe("body.email: Invalid email");
    expect(error.message).toBe("Validation error: body.email: Invalid email");
  });
});

describe("field errors and one-sentence texts (issue 11)", () => {
  it("reads a 422's field errors and shows their sentences, not the API's field names", () => {
    const error = toApiError(422, {
      detail: "Password must be at least 8 characters (new_password).",
      errors: [{ field: "new_password", message: "Password must be at least 8 characters." }, { field: 3 }],
    });
    expect(error.fieldErrors).toEqual([{ field: "new_password", message: "Password must be at least 8 characters." }]);
    expect(error.detail).toBe("Password must be at least 8 characters (new_password).");
    expect(error.message).toBe("Validation error: Password must be at least 8 characters.");
  });

  it("says too many requests once", () => {
    expect(toApiError(429, { detail: "Too many requests. Please try again later." }).message).toBe(
      "Too many requests. Please try again later.",
    );
    expect(messageForStatus(429, "")).toBe("Too many requests. Please wait a moment and try again.");
  });
});
