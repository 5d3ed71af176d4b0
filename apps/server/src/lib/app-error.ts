/** One field's complaint, for the web to show beside that field of a form. */
export interface FieldError {
  /** The field's name as the API spells it, dotted for nested fields ("voice.speed"). */
  field: string;
  message: string;
}

/** Expected failures a use case reports; the error handler maps each code to its HTTP status. */
export type AppErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "validation"
  | "rate_limited"
  | "unavailable"
  /** A vendor or upstream service failed the request (502). */
  | "bad_gateway";

const statusByCode: Record<AppErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  validation: 422,
  rate_limited: 429,
  unavailable: 503,
  bad_gateway: 502,
};

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Per-field complaints of a validation failure, for the web to mark the form's fields. */
    readonly errors: FieldError[] = [],
  ) {
    super(message);
    this.name = "AppError";
    this.status = statusByCode[code];
  }
}

export const notFound = (what = "Not found.") => new AppError("not_found", what);
