import { z } from "zod";
import type { LanguageOption, SttFieldSpec } from "./editor-options.ts";

/** Schema pieces and editor field builders the transcriber descriptors share (spec §3 fields). */

export const sttLanguage = z.string().trim().min(1).max(20);
export const sttWords = z.array(z.string().trim().min(1).max(100)).max(200);

/** Fields every transcriber config has: the model, the language and automatic detection. */
export const sttBaseShape = (model: string, language: string) => ({
  model: z.string().default(model),
  language: sttLanguage.default(language),
  detect_language: z.boolean().default(false),
});

export const languageField = (options: LanguageOption[]): SttFieldSpec => ({
  name: "language",
  kind: "select",
  label: "Language",
  options,
});
export const detectLanguageField: SttFieldSpec = {
  name: "detect_language",
  kind: "boolean",
  label: "Detect the language automatically",
};
export const sampleRateField: SttFieldSpec = {
  name: "sample_rate",
  kind: "number",
  label: "Sample rate (Hz)",
  min: 8000,
  max: 48000,
};
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
