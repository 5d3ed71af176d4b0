import type { Assistant, CallCostBreakdown, CallSegment } from "@parley/contract";
import type { RealtimeUsage } from "@parley/engine";
import { realtimeCallCost } from "./realtime-cost.ts";

/** What the model used between two of its usage totals. */
const minus = (a: RealtimeUsage, b: RealtimeUsage): RealtimeUsage => ({
  inputTextTokens: Math.max(0, a.inputTextTokens - b.inputTextTokens),
  inputAudioTokens: Math.max(0, a.inputAudioTokens - b.inputAudioTokens),
  cachedInputTokens: Math.max(0, a.cachedInputTokens - b.cachedInputTokens),
  outputTextTokens: Math.max(0, a.outputTextTokens - b.outputTextTokens),
  outputAudioTokens: Math.max(0, a.outputAudioTokens - b.outputAudioTokens),
});

/**
 * A squad's call on a realtime model (issue 32): every member talked through the first member's
 * model session, so the call is priced as one realtime call at that model's prices, and each
 * stretch's cost is what the model used between its hand-offs (`marks`: the usage totals at each
 * hand-off, in order) plus its own minutes.
 */
export function realtimeSquadCost(
  model: Assistant,
  segments: CallSegment[],
  marks: RealtimeUsage[],
  options: { usage: RealtimeUsage; durationMs: number; telephonyPerMinute: number },
): { cost: number; breakdown: CallCostBreakdown; segments: CallSegment[] } {
  const { usage, durationMs, telephonyPerMinute } = options;
  const whole = realtimeCallCost(model, durationMs, { telephonyPerMinute, usage });
  const priced = segments.map((segment, i) => {
    const from = i === 0 ? null : marks[i - 1];
    const to = marks[i] ?? usage;
    const used = from ? minus(to, from) : to;
    const stretch = Math.max(0, (segment.ended_at_ms ?? durationMs) - segment.started_at_ms);
    return { ...segment, cost: realtimeCallCost(model, stretch, { telephonyPerMinute, usage: used }).cost };
  });
  return { ...whole, segments: priced };
}
