import type { RealtimeUsageReport } from "./server-events.ts";

/** A conversation's tokens by modality: audio and text are priced differently, cached input at a discount. */
export interface RealtimeUsage {
  inputTextTokens: number;
  inputAudioTokens: number;
  cachedInputTokens: number;
  outputTextTokens: number;
  outputAudioTokens: number;
}

export function emptyUsage(): RealtimeUsage {
  return { inputTextTokens: 0, inputAudioTokens: 0, cachedInputTokens: 0, outputTextTokens: 0, outputAudioTokens: 0 };
}

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
