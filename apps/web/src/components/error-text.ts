import { ApiError } from "../lib/api-error.ts";
import { withServerWords } from "../lib/server-error-text.ts";

/**
 * The message to show for a failure: an API refusal in the server's own words, once (an error
 * made outside the HTTP client, an upload's say, is put the same way), else the error's text, else
 * the fallback.
 */
export const errorText = (error: unknown, fallback: string) => {
  if (error instanceof ApiError) return withServerWords(error).message || fallback;
  return error instanceof Error && error.message ? error.message : fallback;
};
