/**
 * End-of-turn rules: once the caller pauses, how long the transcript says to wait before answering
 * (as Vapi's transcription endpointing plan does). A finished sentence is answered almost at once;
 * a phrase left open or a number being read out waits for the caller to go on.
 */

/** Which rule ended a caller turn (recorded in the turn's metrics). */
export type EndOfTurnRule =
  /** The transcript ended a sentence or question. */
  | "punctuation"
  /** The transcript ended mid-phrase. */
  | "no_punctuation"
  /** The transcript ended on a number (digits being read out). */
  | "number"
  /** The recogniser does not punctuate: the interruption sensitivity's silence decided. */
  | "silence"
  /** The recogniser's own end-of-turn event. */
  | "vendor"
  /** No transcript came after the caller stopped: whatever was heard is answered. */
  | "timeout";

export interface EndOfTurnSettings {
  /** Waits counted from the end of the caller's speech, per rule. */
  punctuationMs: number;
  noPunctuationMs: number;
  numberMs: number;
  /** The silence that ends a turn when the recogniser does not punctuate. */
  silenceMs: number;
  /** End at once on the recogniser's own end-of-turn event. */
  vendorEvents: boolean;
}

const NUMBER_WORDS = new Set(
  "zero oh one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand".split(
    " ",
  ),
);

/**
 * The rule for a transcript. A number comes first: recognisers often put a full stop after digits
 * that the caller is still reading out.
 */
export function ruleFor(text: string, punctuates: boolean): EndOfTurnRule {
  const trimmed = text.trim();
  const lastWord = (trimmed.split(/\s+/).at(-1) ?? "").replace(/[.,!?;:…"')\]]+$/u, "").toLowerCase();
  if (/\d$/.test(lastWord) || NUMBER_WORDS.has(lastWord)) return "number";
  if (!punctuates) return "silence";
  return /[.!?…。？！]["')\]]*$/u.test(trimmed) ? "punctuation" : "no_punctuation";
}

export function waitFor(rule: EndOfTurnRule, settings: EndOfTurnSettings): number {
  switch (rule) {
    case "punctuation":
      return settings.punctuationMs;
    case "no_punctuation":
      return settings.noPunctuationMs;
    case "number":
      return settings.numberMs;
    case "silence":
      return settings.silenceMs;
    default:
      return 0;
  }
}
