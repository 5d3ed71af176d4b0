import { ApiError } from "../../lib/api-error.ts";
import { isLeavingPage } from "../../lib/page-lifecycle.ts";

/**
 * True when a session restore failed only because the browser cut its request off: the page is
 * being left (the browser aborts pending fetches, which arrive as network errors) or the request
 * was aborted. Spec §4's "any failure resets silently" is about the session, not about that.
 * The schemas that check the answers are a chunk loaded on demand (session-schemas.ts): the
 * browser cutting that off shows as a TypeError from the dynamic import.
 */
export function isRestoreInterrupted(error: unknown, leaving: boolean = isLeavingPage()): boolean {
  if (error instanceof DOMException && error.name === "AbortError") return true;
  return leaving && ((error instanceof ApiError && error.status === 0) || error instanceof TypeError);
}
