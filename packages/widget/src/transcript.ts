import { foldTranscript, type TranscriptLine } from "@parley/browser-audio";

export type Line = TranscriptLine;

/** Folds a transcript message into the lines, as the web app's live call does. */
export const applyTranscript = (lines: Line[], update: Line): Line[] => foldTranscript(lines, update, (line) => line);

/** After a barge-in the assistant's last line keeps only what the caller heard. */
export function cutAssistant(lines: Line[], heard: string): Line[] {
  const index = lines.findLastIndex((line) => line.role === "assistant");
  const line = lines[index];
  if (!line) return lines;
  const cut = heard ? `${heard}…` : "…";
  const text = !line.final && line.settled ? `${line.settled} ${cut}` : cut;
  return lines.map((l, i) => (i === index ? { role: "assistant", text, final: true } : l));
}
