import type { ToolSpec } from "../types.ts";

/**
 * How the vendor's automatic activity detection decides a caller's turn (`automaticActivityDetection`):
 * "high" starts (or ends) speech more readily, "low" less; omitted fields take the vendor's defaults.
 */
export interface GeminiTurnDetection {
  /** `startOfSpeechSensitivity`: START_SENSITIVITY_HIGH or START_SENSITIVITY_LOW. */
  startSensitivity?: "high" | "low";
  /** `endOfSpeechSensitivity`: END_SENSITIVITY_HIGH or END_SENSITIVITY_LOW. */
  endSensitivity?: "high" | "low";
  /** Speech needed before the start of speech is committed. */
  prefixPaddingMs?: number;
  /** Silence needed before the end of speech is committed (the caller's turn ends). */
  silenceDurationMs?: number;
}

export interface GeminiLiveSettings {
  /** A Live model, e.g. `gemini-2.5-flash-native-audio-preview-09-2025` (`models/` is added when missing). */
  model: string;
  instructions: string;
  /** A prebuilt voice (`Puck`, `Kore`, `Aoede`, …): `speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName`. */
  voice: string;
  /** `speechConfig.languageCode` (BCP-47, e.g. `en-US`); native-audio models pick the language themselves. */
  language?: string;
  turnDetection: GeminiTurnDetection;
  /**
   * The caller's words as text (`inputAudioTranscription`) for the call log; the assistant's
   * (`outputAudioTranscription`) are always asked for: the call log and the heard share need them.
   */
  inputTranscription: boolean;
  tools: ToolSpec[];
}
