import { emptyUsage, type RealtimeUsage } from "../shared/realtime-usage.ts";
import type { RealtimeUsageReport } from "./server-events.ts";

export { emptyUsage, type RealtimeUsage };

/** Adds one `response.done` usage report to the totals. */
export function addUsage(totals: RealtimeUsage, report: RealtimeUsageReport): RealtimeUsage {
  const input = report.input_token_details;
  const output = report.output_token_details;
  return {
    inputTextTokens: totals.inputTextTokens + (input?.text_tokens ?? 0),
    inputAudioTokens: totals.inputAudioTokens + (input?.audio_tokens ?? 0),
    cachedInputTokens: totals.cachedInputTokens + (input?.cached_tokens ?? 0),
    outputTextTokens: totals.outputTextTokens + (output?.text_tokens ?? 0),
    outputAudioTokens: totals.outputAudioTokens + (output?.audio_tokens ?? 0),
  };
}
