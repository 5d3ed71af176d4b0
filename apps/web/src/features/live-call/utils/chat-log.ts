import { foldTranscript, type TranscriptUpdate } from "@parley/browser-audio";

/** The chat panel's lines: live partials are replaced in place, finals stay. */
export interface ChatLine {
  id: number;
  role: "user" | "assistant";
  text: string;
  final: boolean;
  /** An assistant bubble with a sentence still being spoken: the sentences already finished. */
  settled?: string;
}

export type { TranscriptUpdate };

let nextId = 1;

/** Folds one transcript message into the lines (see foldTranscript); a new line gets the next id. */
export function applyTranscript(lines: ChatLine[], update: TranscriptUpdate): ChatLine[] {
  return foldTranscript(lines, update, (line) => ({ id: nextId++, ...line }));
}

/**
 * After a barge-in (or a hang-up) the assistant's last bubble shows only what the caller heard; a
 * bubble of which nothing was heard goes away rather than stay as a lone "…".
 */
export function truncateAssistant(lines: ChatLine[], heardText: string): ChatLine[] {
  const index = lines.findLastIndex((l) => l.role === "assistant");
  if (index < 0) return lines;
  const copy = lines.slice();
  const line = copy[index] as ChatLine;
  if (!heardText && !line.final && !line.settled) return [...copy.slice(0, index), ...copy.slice(index + 1)];
  // Sentences that finished playing before the barge-in were heard whole; only the cut one shrinks.
  const cut = heardText ? `${heardText}…` : "…";
  const text = !line.final && line.settled ? `${line.settled} ${cut}` : cut;
  copy[index] = { id: line.id, role: line.role, text, final: true };
  return copy;
}
