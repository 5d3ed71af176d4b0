import { createHash } from "node:crypto";

/** How a number kept only as its hash starts (a do-not-call entry or campaign row of an erased person). */
export const ERASED_PREFIX = "erased:";

/**
 * The form an erased person's number is kept in (privacy module, docs/privacy.md): its SHA-256
 * within the workspace. The do-not-call list still blocks the number (the hash of a number being
 * dialled matches), while a reader of the list no longer sees it. It is a pseudonym, not
 * anonymity: whoever holds the database and guesses a number can confirm it.
 */
export function erasedNumber(workspaceId: string, number: string): string {
  return ERASED_PREFIX + createHash("sha256").update(`${workspaceId}\n${number}`).digest("hex");
}
