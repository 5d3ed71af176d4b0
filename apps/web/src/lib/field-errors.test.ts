import { describe, expect, it, vi } from "vitest";
import { ApiError, toApiError } from "./api-error.ts";
import { applyFieldErrors } from "./field-errors.ts";

interface PasswordForm {
  currentPassword: string;
  new_password: string;
}

const answer = toApiError(422, {
  detail: "…",
  errors: [
    { field: "current_password", message: "Current password is required." },
    { field: "new_password", message: "Password must be at least 8 characters." },
    { field: "token", message: "Token must be at least 16 characters long." },
  ],
});

describe("applyFieldErrors", () => {
  it("puts each field error on the form field it names, focusing the first, and returns the rest", () => {
    const setError = vi.fn();
    const rest = applyFieldErrors<PasswordForm>(answer, setError, ["currentPassword", "new_password"], {
      current_password: "currentPassword",
    });
    expect(setError).toHaveBeenCalledWith(
      "currentPassword",
      { type: "server", message: "Current password is required." },
      { shouldFocus: true },
    );
    expect(setError).toHaveBeenCalledWith(
      "new_password",
      { type: "server", message: "Password must be at least 8 characters." },
      { shouldFocus: false },
    );
    expect(rest).toBe("Token must be at least 16 characters long.");
  });

  it("returns undefined when every error found its field", () => {
    const only = toApiError(422, { detail: "…", errors: [{ field: "new_password", message: "Too short." }] });
    expect(applyFieldErrors<PasswordForm>(only, vi.fn(), ["new_password"])).toBeUndefined();
  });

  it("leaves errors without field errors to the caller's general message", () => {
    const setError = vi.fn();
    expect(applyFieldErrors<PasswordForm>(new ApiError(403, "Access denied", ""), setError, ["new_password"])).toBe(
      "Access denied",
    );
    expect(setError).not.toHaveBeenCalled();
  });
});
