import type { TurnMetricsEntry } from "@parley/contract";

/** One turn's bar: its parts in ms, stacked from the bottom, and their total. */
export interface TurnParts {
  stt_ms: number;
  end_of_turn_wait_ms: number;
  llm_ttft_ms: number;
  tts_ttfb_ms: number;
  /** What the named parts leave of the wait: the model past its first token, the engine. */
  rest_ms: number;
  /** What the caller waited (voice-to-voice); the parts' sum for a turn that was not measured whole. */
  total: number;
}

const MEASURED = ["stt_ms", "end_of_turn_wait_ms", "llm_ttft_ms", "tts_ttfb_ms"] as const;

/**
 * A turn's bar, as tall as what the caller waited: each part in the order it happened, cut so the
 * stack never passes the total (the model's first token overlaps its share of the wait), and the
 * rest of the wait on top. A bar never stops short of the figure written over it.
 */
export function turnParts(m: TurnMetricsEntry): TurnParts {
  const value = (key: (typeof MEASURED)[number]) => Math.max(0, m[key] ?? 0);
  const total = m.voice_to_voice_ms ?? MEASURED.reduce((sum, key) => sum + value(key), 0);
  let left = total;
  const take = (key: (typeof MEASURED)[number]) => {
    const part = Math.min(left, value(key));
    left -= part;
    return part;
  };
  const stt_ms = take("stt_ms");
  const end_of_turn_wait_ms = take("end_of_turn_wait_ms");
  const llm_ttft_ms = take("llm_ttft_ms");
  const tts_ttfb_ms = take("tts_ttfb_ms");
  return { stt_ms, end_of_turn_wait_ms, llm_ttft_ms, tts_ttfb_ms, rest_ms: left, total };
}
