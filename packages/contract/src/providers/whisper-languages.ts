import { languages } from "./editor-options.ts";

/** The languages offered for Whisper-family transcription models (served by more than one vendor). */
export const WHISPER_LANGUAGES = languages([
  "en",
  "ar",
  "es",
  "fr",
  "de",
  "hi",
  "pt",
  "it",
  "nl",
  "ja",
  "ko",
  "zh",
  "ru",
  "tr",
  "pl",
  "uk",
  "sv",
  "id",
  "vi",
  "ur",
  "fa",
]);
