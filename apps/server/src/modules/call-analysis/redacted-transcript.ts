import type { TranscriptEntry } from "@parley/contract";
import { PiiVault } from "@parley/engine";

/**
 * The transcript the analysis model reads when the workspace redacts personal data: a call stored
 * with redaction already holds placeholders, and one stored before redaction was turned on is
 * masked here, with placeholders consistent across its lines, so the prompt never carries it.
 */
export function redactedTranscript(transcript: TranscriptEntry[]): TranscriptEntry[] {
  const vault = new PiiVault();
  return transcript.map((line) => ({ ...line, text: vault.mask(line.text) }));
}
