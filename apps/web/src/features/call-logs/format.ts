/** mm:ss for a call's length. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/** Offset from the call's start, as m:ss.t. */
export function formatOffset(ms: number): string {
  const tenths = Math.max(0, Math.round(ms / 100));
  const seconds = Math.floor(tenths / 10);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}.${tenths % 10}`;
}

/** USD with sub-cent precision: per-call costs are often fractions of a cent. */
export function formatMoney(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

/**
 * The key naming an event: an interruption before a word of the reply was heard has its own
 * sentence, since quoting what was heard would show empty quotes.
 */
export function eventKey(event: { type: string; heard_text?: string }): string {
  if (event.type === "interruption" && !event.heard_text?.trim()) return "events.interruptionUnheard";
  return `events.${event.type}`;
}
