import { describe, expect, it } from "vitest";
import { errorText } from "../components/error-text.ts";
import { ApiError, toApiError } from "./api-error.ts";
import { onceEach, withServerWords } from "./server-error-text.ts";

describe("a refusal in the server's own words, once (issue 26)", () => {
  it("drops the status words in front of a 422's sentence", () => {
    const error = withServerWords(toApiError(422, { detail: "Could not connect to the MCP server at x: refused." }));
    expect(error.message).toBe("Could not connect to the MCP server at x: refused.");
    expect(error.status).toBe(422);
  });

  it("says each field sentence once, however often the answer repeats it", () => {
    const error = withServerWords(
      toApiError(422, {
        detail: "Enter a valid URL (url). Enter a valid URL (webhook_url).",
        errors: [
          { field: "url", message: "Enter a valid URL." },
          { field: "webhook_url", message: "Enter a valid URL" },
          { field: "name", message: "Name is required." },
        ],
      }),
    );
    expect(error.message).toBe("Enter a valid URL. Name is required.");
    expect(error.fieldErrors).toHaveLength(3);
  });

  it("keeps the server's words for other refusals: 400, 403, 404, 409", () => {
    expect(withServerWords(toApiError(400, { detail: "The token is not valid." })).message).toBe(
      "The token is not valid.",
    );
    expect(withServerWords(toApiError(403, { detail: "Only workspace owners can do this." })).message).toBe(
      "Only workspace owners can do this.",
    );
    expect(withServerWords(toApiError(404, { detail: "404: Agent not found" })).message).toBe("Agent not found");
    expect(withServerWords(toApiError(409, { detail: "This already exists." })).message).toBe("This already exists.");
  });

  it("keeps the status text when the server said nothing, for server faults and when no answer came", () => {
    expect(withServerWords(toApiError(422, {})).message).toBe("Validation error: the request is invalid");
    expect(withServerWords(toApiError(500, { detail: "Internal server error." })).message).toMatch(/^Server error/);
    expect(withServerWords(toApiError(0, { detail: "" })).message).toMatch(/^Network error/);
  });

  it("is what errorText shows, also for an error made outside the HTTP client", () => {
    expect(errorText(toApiError(422, { detail: "A file is empty. A file is empty." }), "Failed.")).toBe(
      "A file is empty.",
    );
    expect(errorText(new ApiError(422, "", ""), "Failed.")).toBe("Failed.");
    expect(errorText(new Error("Plain."), "Failed.")).toBe("Plain.");
    expect(errorText("nothing", "Failed.")).toBe("Failed.");
  });

  it("joins sentences once each, keeping their order", () => {
    expect(onceEach(["One. Two!", "two", "Three…"])).toBe("One. Two! Three…");
  });
});
