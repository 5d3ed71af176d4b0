import type { TranscriptEntry } from "@parley/contract";

/** Caller turns quoted in a default briefing: the last few say what the call is about now. */
const QUOTED_TURNS = 2;
/** A briefing is heard before the caller is connected: kept to a sentence or two. */
const MAX_QUOTE_CHARS = 280;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= MAX_QUOTE_CHARS) return flat;
  const cut = flat.slice(0, MAX_QUOTE_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), MAX_QUOTE_CHARS / 2))}…`;
}

/**
 * What the assistant tells the human on a warm transfer when the destination has no briefing of
 * its own: who is calling and their last words, built from the transcript (deterministic, no extra
 * model call), then that the caller is being connected.
 */
export function defaultBriefing(caller: string, transcript: readonly TranscriptEntry[]): string {
  const who = caller ? `a caller on the line from ${caller.split("").join(" ")}` : "a caller on the line";
  const said = transcript
    .filter((line) => line.role === "user" && line.text.trim() !== "")
    .slice(-QUOTED_TURNS)
    .map((line) => line.text.trim())
    .join(" ");
  const quote = said ? ` They said: "${clip(said)}".` : "";
  return `Hello, this is the assistant. I have ${who}.${quote} I am connecting you now.`;
}
