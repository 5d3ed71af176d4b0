export interface Line {
  role: "user" | "assistant";
  text: string;
  final: boolean;
  /** An assistant line still being spoken: its sentences already finished. */
  settled?: string;
}

/**
 * Folds a transcript message into the lines (as the web app's live call does): a partial replaces
 * that side's open line, a final closes it; the assistant's sentences of one answer join into one.
 */
export function applyTranscript(lines: Line[], update: Line): Line[] {
  const text = update.text.trim();
  if (!text) return lines;
  const last = lines.at(-1);
  if (update.role === "assistant" && last?.role === "assistant") {
    const settled = last.final ? last.text : (last.settled ?? "");
    const joined = settled ? `${settled} ${text}` : text;
    const next: Line = update.final
      ? { role: "assistant", text: joined, final: true }
      : { role: "assistant", text: joined, final: false, settled };
    return [...lines.slice(0, -1), next];
  }
  const open = lines.findLastIndex((line) => line.role === update.role && !line.final);
  if (open >= 0) return lines.map((line, i) => (i === open ? { ...line, text, final: update.final } : line));
  return [...lines, { role: update.role, text, final: update.final }];
}

/** After a barge-in the assistant's last line keeps only what the caller heard. */
export function cutAssistant(lines: Line[], heard: string): Line[] {
  const index = lines.findLastIndex((line) => line.role === "assistant");
  const line = lines[index];
  if (!line) return lines;
  const cut = heard ? `${heard}…` : "…";
  const text = !line.final && line.settled ? `${line.settled} ${cut}` : cut;
  return lines.map((l, i) => (i === index ? { role: "assistant", text, final: true } : l));
}
