import { ErrorResponse } from "@parley/contract";

/** The error statuses most authenticated routes can answer, for their response schemas. */
export const errorResponses = {
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  422: ErrorResponse,
} as const;
