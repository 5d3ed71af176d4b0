import type { LanguageOption, SttFieldSpec } from "./editor-options.ts";

/** Builders for the transcriber settings as the editor renders them (each config field, in order). */

export const toggleField = (name: string, label: string): SttFieldSpec => ({ name, kind: "boolean", label });
export const wordListField = (name: string, label: string, help: string): SttFieldSpec => ({
  name,
  kind: "list",
  label,
  help,
});
export const selectField = (name: string, label: string, options: LanguageOption[]): SttFieldSpec => ({
  name,
  kind: "select",
  label,
  options,
});

const detectLanguageField: SttFieldSpec = {
  name: "detect_language",
  kind: "boolean",
  label: "Detect the language automatically",
};
/** The fields every transcriber starts with: its languages, then automatic detection. */
export const languageFields = (options: LanguageOption[]) =>
  [selectField("language", "Language", options), detectLanguageField] as const;

export const sampleRateField: SttFieldSpec = {
  name: "sample_rate",
  kind: "number",
  label: "Sample rate (Hz)",
  min: 8000,
  max: 48000,
};
