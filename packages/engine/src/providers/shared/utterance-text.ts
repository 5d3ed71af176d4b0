import type { TranscriptEvent } from "../types.ts";

/**
 * The transcript contract every adapter keeps: a `partial` carries everything heard so far in the
 * current utterance; a `final` carries only the newly settled words (finals of one utterance never
 * overlap, so the listener joins them with spaces); `utterance_end` closes the utterance.
 */
export class UtteranceText {
  private finals: string[] = [];

  constructor(private readonly emit: (event: TranscriptEvent) => void) {}

  /** True when the current utterance has settled words. */
  get hasText(): boolean {
    return this.finals.length > 0;
  }

  partial(unsettled: string): void {
    const text = [...this.finals, unsettled.trim()].filter(Boolean).join(" ");
    if (text) this.emit({ type: "partial", text });
  }

  final(text: string, extra: { confidence?: number; language?: string } = {}): void {
    const trimmed = text.trim();
    if (!trimmed) return;
    this.finals.push(trimmed);
    this.emit({ type: "final", text: trimmed, ...definedOnly(extra) });
  }

  /** Closes the utterance; `endOfTurn` when the vendor's own endpointing (not a finalize) closed it. */
  end(endOfTurn = false): void {
    this.finals = [];
    this.emit(endOfTurn ? { type: "utterance_end", endOfTurn } : { type: "utterance_end" });
  }
}

function definedOnly(extra: { confidence?: number; language?: string }): { confidence?: number; language?: string } {
  const out: { confidence?: number; language?: string } = {};
  if (typeof extra.confidence === "number") out.confidence = extra.confidence;
  if (typeof extra.language === "string" && extra.language) out.language = extra.language;
  return out;
}
