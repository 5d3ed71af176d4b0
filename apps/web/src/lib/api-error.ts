/** An API failure with the user-facing message of spec §8 and the server's own detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Server error text: detail (a leading "404: " style prefix stripped), else message, else error. */
export function serverErrorText(body: unknown): string {
  if (!body || typeof body !== "object") return typeof body === "string" ? body : "";
  const record = body as Record<string, unknown>;
  const detail = record.detail;
  if (typeof detail === "string" && detail) return detail.replace(/^\d{3}:\s*/, "");
  if (Array.isArray(detail) && detail.length > 0) {
    return detail.map((d) => (d && typeof d === "object" && "msg" in d ? String(d.msg) : String(d))).join("; ");
  }
  for (const key of ["message", "error"]) {
    const value = record[key];
    if (typeof value === "string" && value) return value;
  }
  return "";
}

const withText = (label: string, text: string) => (text ? `${label}: ${text}` : label);

/** The status-to-message mapping of spec §8. Status 0 means no response (network error). */
export function messageForStatus(status: number, text: string): string {
  switch (status) {
    case 0:
      return withText("Network error. Check your connection and try again", text);
    case 400:
      return `Request validation failed: ${text || "the request is invalid"}`;
    case 401:
      return withText("Authentication failed", text);
    case 403:
      return withText("Access denied", text);
    case 404:
      return withText("Service not found", text);
    case 422:
      return `Validation error: ${text || "the request is invalid"}`;
    case 429:
      return withText("Too many requests. Please wait a moment and try again", text);
    case 500:
      return withText("Server error. Please try again later", text);
    case 502:
    case 503:
    case 504:
      return withText("Service temporarily unavailable. Please try again shortly", text);
    default:
      if (status > 0) return `Request failed (${status}): ${text || "unknown error"}`;
      return withText("An unexpected error occurred. Please try again", text);
  }
}

export function toApiError(status: number, body: unknown): ApiError {
  const text = serverErrorText(body);
  return new ApiError(status, messageForStatus(status, text), text);
}
