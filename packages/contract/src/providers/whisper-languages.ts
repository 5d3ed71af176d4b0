import { languages } from "./editor-options.ts";
import { COMMON_LANGUAGE_CODES } from "./languages.ts";

/** The languages offered for Whisper-family transcription models (served by more than one vendor). */
export const WHISPER_LANGUAGES = languages([
  ...COMMON_LANGUAGE_CODES,
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
