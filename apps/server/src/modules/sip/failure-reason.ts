/**
 * What a SIP call that was never answered leaves in its call log: the final status the INVITE got,
 * code and reason phrase ("SIP 503 Service Unavailable"), so the call-log page says why a trunk
 * refused. Statuses Parley makes up itself read the same way: 408 when the trunk never answered
 * (Timer B), 503 when it could not be reached at all (RFC 3261 §8.1.3.1).
 */

/** Busy and unanswered finals, grouped as SIP end reasons were before they carried the status. */
const BUSY = new Set([486, 600]);
const NO_ANSWER = new Set([408, 480, 487]);

/**
 * The end reason for a final status that is not an answer. The phrase comes from the far end: it
 * is cut to letters, digits and plain punctuation (the web looks end reasons up as translation
 * keys, where "." and ":" are separators) and to 60 characters.
 */
export function sipEndReason(status: number, reason: string): string {
  const phrase = reason
    .replace(/[^\p{L}\p{N} '()-]/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 60)
    .trim();
  return phrase ? `SIP ${status} ${phrase}` : `SIP ${status}`;
}

/** The status an end reason written by sipEndReason carries; null for any other end reason. */
export function sipStatusOf(endReason: string | null): number | null {
  const match = /^SIP (\d{3})\b/.exec(endReason ?? "");
  return match ? Number(match[1]) : null;
}

/** A campaign contact's outcome for a SIP end reason; null when the end reason is not a SIP status. */
export function sipOutcomeOf(endReason: string | null): "busy" | "no-answer" | "failed" | null {
  const status = sipStatusOf(endReason);
  if (status === null) return null;
  if (BUSY.has(status)) return "busy";
  if (NO_ANSWER.has(status)) return "no-answer";
  return "failed";
}

/**
 * Whether a status says something about the trunk an operator should look at: anything but busy,
 * a callee who did not pick up (480) and our own CANCEL after ringing (487). A 408 counts: it is
 * mostly a trunk that never answered.
 */
export const isTrunkFault = (status: number) => !BUSY.has(status) && status !== 480 && status !== 487;
