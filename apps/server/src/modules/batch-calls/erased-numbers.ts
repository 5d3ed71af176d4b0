import { createHash } from "node:crypto";

/** How a number kept only as its hash starts (a do-not-call entry or campaign row of an erased person). */
export const ERASED_PREFIX = "erased:";

/** Hex digits kept of the hash: 80 bits tell a workspace's numbers apart, and the form fits a number's 40 characters. */
const HEX_DIGITS = 20;

/**
 * The form an erased person's number is kept in (privacy module, docs/privacy.md): the start of its
 * SHA-256 within the workspace, `erased:3f2a…`. The do-not-call list still blocks the number (the
 * hash of a number being dialled matches), while a reader of the list no longer sees it. It is a
 * pseudonym, not anonymity: whoever holds the database and guesses a number can confirm it.
 */
export function erasedNumber(workspaceId: string, number: string): string {
  const hash = createHash("sha256").update(`${workspaceId}\n${number}`).digest("hex");
  return ERASED_PREFIX + hash.slice(0, HEX_DIGITS);
}

export const isErasedNumber = (value: string) => value.startsWith(ERASED_PREFIX);
