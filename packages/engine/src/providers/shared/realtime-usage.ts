/**
 * A speech-to-speech conversation's tokens by modality, the same for every vendor: audio and text
 * are priced differently, cached input at a discount. Each vendor's folder maps its own usage
 * reports into it (the Realtime API's `response.done` usage, the Live API's `usageMetadata`).
 */
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
