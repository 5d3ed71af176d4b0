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
 * bubble of which nothing was heard goes away rather than stay as a lone "…". The engine sends the
 * cut reply's final (what was heard) before the interruption, so a final bubble is only shortened
 * when it ends with the heard words; a barge-in while the assistant was thinking (heard "") cuts no
 * bubble, and a reply already spoken whole (the greeting) keeps its text, as the call log does.
 */
export function truncateAssistant(lines: ChatLine[], heardText: string): ChatLine[] {
  const index = lines.findLastIndex((l) => l.role === "assistant");
  if (index < 0) return lines;
  const line = lines[index] as ChatLine;
  const heard = heardText.trim();
  if (line.final) {
    if (!heard || !line.text.endsWith(heard)) return lines;
    return lines.map((l, i) => (i === index ? { ...l, text: `${line.text}…` } : l));
  }
  const settled = line.settled?.trim() ?? "";
  if (!heard && !settled) return [...lines.slice(0, index), ...lines.slice(index + 1)];
  // Sentences that finished playing before the barge-in were heard whole; only the cut one shrinks.
  // Nothing of the cut sentence was heard: the bubble keeps the sentences heard whole, as the log does.
  const text = heard ? (settled ? `${settled} ${heard}…` : `${heard}…`) : settled;
  return lines.map((l, i) => (i === index ? { id: l.id, role: l.role, text, final: true } : l));
}
