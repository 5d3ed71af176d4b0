import { ApiError } from "../../lib/api-error.ts";
import { isLeavingPage } from "../../lib/page-lifecycle.ts";

/**
 * True when a session restore failed only because the browser cut its request off: the page is
 * being left (the browser aborts pending fetches, which arrive as network errors) or the request
 * was aborted. Spec §4's "any failure resets silently" is about the session, not about that.
 */
export function isRestoreInterrupted(error: unknown, leaving: boolean = isLeavingPage()): boolean {
  if (error instanceof DOMException && error.name === "AbortError") return true;
  return leaving && error instanceof ApiError && error.status === 0;
}
