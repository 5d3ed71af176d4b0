/** The chat panel's lines: live partials are replaced in place, finals stay. */
export interface ChatLine {
  id: number;
  role: "user" | "assistant";
  text: string;
  final: boolean;
  /** An assistant bubble with a sentence still being spoken: the sentences already finished. */
  settled?: string;
}

export interface TranscriptUpdate {
  role: "user" | "assistant";
  text: string;
  final: boolean;
}

let nextId = 1;

/**
 * Folds one transcript message into the lines: a partial replaces the role's open partial; a
 * final closes it. The assistant's sentences of one answer (no caller line between) join into one
 * bubble, whether each arrives as it starts playing (partial) or once it was spoken (final).
 */
export function applyTranscript(lines: ChatLine[], update: TranscriptUpdate): ChatLine[] {
  const text = update.text.trim();
  if (!text) return lines;
  const last = lines.at(-1);
  if (update.role === "assistant" && last?.role === "assistant") {
    const settled = last.final ? last.text : (last.settled ?? "");
    const joined = settled ? `${settled} ${text}` : text;
    const next: ChatLine = update.final
      ? { id: last.id, role: "assistant", text: joined, final: true }
      : { id: last.id, role: "assistant", text: joined, final: false, settled };
    return [...lines.slice(0, -1), next];
  }
  const openIndex = lines.findLastIndex((l) => l.role === update.role && !l.final);
  if (openIndex >= 0) {
    const copy = lines.slice();
    const open = copy[openIndex] as ChatLine;
    copy[openIndex] = { ...open, text, final: update.final };
    return copy;
  }
  return [...lines, { id: nextId++, role: update.role, text, final: update.final }];
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
