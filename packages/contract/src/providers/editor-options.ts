import { z } from "zod";
import { LANGUAGE_NAMES } from "./languages.ts";

/**
 * What the assistant editor renders for a provider: model and language options, transcriber
 * fields and voice settings. The catalog routes send these shapes; they sit below the provider
 * descriptors because every descriptor is written with them.
 */

export const ModelOption = z.object({ value: z.string(), label: z.string().optional() });
export type ModelOption = z.infer<typeof ModelOption>;

export const LanguageOption = z.object({ value: z.string(), label: z.string() });
export type LanguageOption = z.infer<typeof LanguageOption>;

/** A number field's slider: its bounds and step (each optional). */
const sliderBounds = { min: z.number().optional(), max: z.number().optional(), step: z.number().optional() };

/** One transcriber setting as the editor renders it (spec §3 fields by provider). */
export const SttFieldSpec = z.object({
  name: z.string(),
  kind: z.enum(["boolean", "number", "text", "list", "select"]),
  label: z.string(),
  help: z.string().optional(),
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  ...sliderBounds,
});
export type SttFieldSpec = z.infer<typeof SttFieldSpec>;

/** A vendor voice setting the editor renders generically: a slider for numbers, a switch for booleans. */
export const SettingFieldSpec = z.object({
  name: z.string(),
  kind: z.enum(["number", "boolean"]),
  label: z.string(),
  ...sliderBounds,
  default: z.union([z.number(), z.boolean()]),
});
export type SettingFieldSpec = z.infer<typeof SettingFieldSpec>;

export interface BuiltinVoice {
  id: string;
  name: string;
}

/** A model option, as descriptors list them. */
export const m = (value: string, label?: string): ModelOption => (label ? { value, label } : { value });

/** A built-in voice, as descriptors list them. */
export const v = (id: string, name: string): BuiltinVoice => ({ id, name });

/** Language options for codes, each with its display name. */
export const languages = (codes: string[]): LanguageOption[] =>
  codes.map((value) => ({ value, label: LANGUAGE_NAMES[value] ?? value }));
