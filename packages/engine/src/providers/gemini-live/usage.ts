import type { RealtimeUsage } from "../shared/realtime-usage.ts";
import type { LiveUsageMetadata } from "./server-messages.ts";

type ModalityCounts = LiveUsageMetadata["promptTokensDetails"];

/** The tokens of one modality (`TEXT`, `AUDIO`) in a `…TokensDetails` list. */
function tokensOf(details: ModalityCounts, modality: string): number {
  return (details ?? [])
    .filter((entry) => entry.modality === modality)
    .reduce((sum, entry) => sum + (entry.tokenCount ?? 0), 0);
}

/**
 * Adds one `usageMetadata` (one turn's tokens: the Live API reports each turn, not running totals)
 * to the conversation's. Input: the prompt's and the function results' TEXT and AUDIO tokens;
 * cached: `cachedContentTokenCount` (part of the prompt's count, billed at the cached rate).
 * Output: the response's TEXT and AUDIO tokens, thinking counted as output text (it is billed so).
 */
export function addLiveUsage(totals: RealtimeUsage, usage: LiveUsageMetadata): RealtimeUsage {
  const input = [usage.promptTokensDetails, usage.toolUsePromptTokensDetails];
  return {
    inputTextTokens: totals.inputTextTokens + input.reduce((sum, details) => sum + tokensOf(details, "TEXT"), 0),
    inputAudioTokens: totals.inputAudioTokens + input.reduce((sum, details) => sum + tokensOf(details, "AUDIO"), 0),
    cachedInputTokens: totals.cachedInputTokens + (usage.cachedContentTokenCount ?? 0),
    outputTextTokens:
      totals.outputTextTokens + tokensOf(usage.responseTokensDetails, "TEXT") + (usage.thoughtsTokenCount ?? 0),
    outputAudioTokens: totals.outputAudioTokens + tokensOf(usage.responseTokensDetails, "AUDIO"),
  };
}
