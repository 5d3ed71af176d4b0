/** The chat panel's lines: live partials are replaced in place, finals stay. */
export interface ChatLine {
  id: number;
  role: "user" | "assistant";
  text: string;
  final: boolean;
}

export interface TranscriptUpdate {
  role: "user" | "assistant";
  text: string;
  final: boolean;
}

let nextId = 1;

/**
 * Folds one transcript message into the lines: a partial replaces the role's open partial; a
 * final closes it; consecutive assistant sentences of one answer join into one bubble.
 */
export function applyTranscript(lines: ChatLine[], update: TranscriptUpdate): ChatLine[] {
  const text = update.text.trim();
  if (!text) return lines;
  const last = lines.at(-1);
  const openIndex = lines.findLastIndex((l) => l.role === update.role && !l.final);
  if (openIndex >= 0) {
    const copy = lines.slice();
    const open = copy[openIndex] as ChatLine;
    copy[openIndex] = { ...open, text, final: update.final };
    return copy;
  }
  if (update.role === "assistant" && update.final && last?.role === "assistant" && last.final) {
    return [...lines.slice(0, -1), { ...last, text: `${last.text} ${text}` }];
  }
  return [...lines, { id: nextId++, role: update.role, text, final: update.final }];
}

/** After a barge-in the assistant's last bubble shows only what the caller heard. */
export function truncateAssistant(lines: ChatLine[], heardText: string): ChatLine[] {
  const index = lines.findLastIndex((l) => l.role === "assistant");
  if (index < 0) return lines;
  const copy = lines.slice();
  const line = copy[index] as ChatLine;
  copy[index] = { ...line, text: heardText ? `${heardText}…` : "…", final: true };
  return copy;
}
