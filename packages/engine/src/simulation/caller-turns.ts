import type { CallerBehaviours } from "@parley/contract";

/** What the caller does on one turn, before its words are known (persona) or as scripted. */
export interface TurnActions {
  /** Keys pressed before speaking, in order. */
  dtmf: string;
  /** A silent turn: nothing said or pressed; the assistant's silence handling speaks next. */
  silent: boolean;
}

/** The behaviours that apply to turn `turn` (1 is the caller's first). */
export function turnActions(behaviours: CallerBehaviours, turn: number): TurnActions {
  if (behaviours.silent_turns.includes(turn)) return { dtmf: "", silent: true };
  const dtmf = behaviours.dtmf
    .filter((press) => press.turn === turn)
    .map((press) => press.digits)
    .join("");
  return { dtmf, silent: false };
}

/** How far into the assistant's reply turn `turn` cuts in; null: it waits for the reply to end. */
export function interruptAfter(behaviours: CallerBehaviours, turn: number): number | null {
  return behaviours.speaks_over_turns.includes(turn) ? behaviours.interrupt_after_ms : null;
}

/** A line said with a pause in the middle: split at the word boundary nearest its middle. */
export function splitInHalves(text: string): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return [text.trim()];
  const middle = words.join(" ").length / 2;
  let best = 1;
  let offset = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  // Character offsets of each word boundary, so a long word on one side does not skew the split.
  for (let i = 1; i < words.length; i++) {
    offset += (words[i - 1] as string).length + 1;
    const distance = Math.abs(offset - middle);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = i;
    }
  }
  return [words.slice(0, best).join(" "), words.slice(best).join(" ")];
}
