/** One field's complaint in a 422 answer: the field as the API spells it ("voice.speed") and a sentence. */
export interface FieldError {
  field: string;
  message: string;
}

/** An API failure with the user-facing message of spec §8, the server's own detail and its field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail: string,
    /** A 422's per-field complaints, for a form to show beside its fields (see field-errors.ts). */
    readonly fieldErrors: FieldError[] = [],
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
      // The server's own text already starts with the spec's words; saying them twice reads badly.
      if (/^too many requests/i.test(text)) return text;
      return text ? `Too many requests. ${text}` : "Too many requests. Please wait a moment and try again.";
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

/** The `errors` list of a 422 answer, keeping only well-formed entries. */
export function fieldErrorsOf(body: unknown): FieldError[] {
  if (!body || typeof body !== "object" || !("errors" in body) || !Array.isArray(body.errors)) return [];
  return body.errors.filter(
    (entry): entry is FieldError =>
      typeof entry === "object" &&
      entry !== null &&
      typeof entry.field === "string" &&
      typeof entry.message === "string" &&
      entry.message !== "",
  );
}

export function toApiError(status: number, body: unknown): ApiError {
  const text = serverErrorText(body);
  const fieldErrors = fieldErrorsOf(body);
  // The field sentences read better than the detail, which also names each field as the API spells it.
  const shown = fieldErrors.length > 0 ? [...new Set(fieldErrors.map((e) => e.message))].join(" ") : text;
  return new ApiError(status, messageForStatus(status, shown), text, fieldErrors);
}
