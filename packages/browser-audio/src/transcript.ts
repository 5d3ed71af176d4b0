/** A line of a call's live transcript as the web app's chat panel and the widget show it. */
export interface TranscriptLine {
  role: "user" | "assistant";
  text: string;
  final: boolean;
  /** An assistant line with a sentence still being spoken: the sentences already finished. */
  settled?: string;
}

/** A transcript message from the server: one side's words, partial or final. */
export type TranscriptUpdate = Pick<TranscriptLine, "role" | "text" | "final">;

/**
 * Folds one transcript message into the lines: a partial replaces that side's open line; a final
 * closes it. The assistant's sentences of one answer (no caller line between) join into one line,
 * whether each arrives as it starts playing (partial) or once it was spoken (final). `newLine`
 * makes a line the list does not have yet (the web app gives each an id).
 */
export function foldTranscript<L extends TranscriptLine>(
  lines: L[],
  update: TranscriptUpdate,
  newLine: (line: TranscriptUpdate) => L,
): L[] {
  const text = update.text.trim();
  if (!text) return lines;
  const last = lines.at(-1);
  if (update.role === "assistant" && last?.role === "assistant") {
    const { settled: previous, ...rest } = last;
    const settled = last.final ? last.text : (previous ?? "");
    const joined = settled ? `${settled} ${text}` : text;
    const next = update.final
      ? { ...rest, text: joined, final: true }
      : { ...rest, text: joined, final: false, settled };
    return [...lines.slice(0, -1), next as L];
  }
  const open = lines.findLastIndex((line) => line.role === update.role && !line.final);
  if (open >= 0) return lines.map((line, i) => (i === open ? { ...line, text, final: update.final } : line));
  return [...lines, newLine({ role: update.role, text, final: update.final })];
}
