import { STT_CONFIG_SCHEMAS, SttFieldSpec, type SttProviderId } from "@parley/contract";
import { z } from "zod";
import { numberBounds, unwrapSchema } from "../../../lib/number-bounds.ts";

/** How one transcriber setting is edited; labels come from the server's catalog when it gives them. */
export interface SttFieldView {
  key: string;
  kind: SttFieldSpec["kind"];
  label?: string;
  help?: string;
  options?: { value: string; label: string }[];
  min?: number;
  max?: number;
  step?: number;
}

/** The model is edited on its own (it has its own option list), so it is not a config field. */
const SEPARATE = new Set(["model"]);

function viewOf(key: string, schema: z.ZodType): SttFieldView {
  const inner = unwrapSchema(schema);
  if (inner instanceof z.ZodBoolean) return { key, kind: "boolean" };
  if (inner instanceof z.ZodNumber) {
    const view: SttFieldView = { key, kind: "number" };
    const { min, max } = numberBounds(inner);
    if (min !== undefined) view.min = min;
    if (max !== undefined) view.max = max;
    return view;
  }
  if (inner instanceof z.ZodEnum) {
    return { key, kind: "select", options: inner.options.map((o) => ({ value: String(o), label: String(o) })) };
  }
  if (inner instanceof z.ZodArray) return { key, kind: "list" };
  return { key, kind: "text" };
}

/** The settings of a transcriber (spec §3) as the contract's schema defines them, in its order. */
export function sttFieldsFromSchema(provider: SttProviderId): SttFieldView[] {
  return Object.entries(STT_CONFIG_SCHEMAS[provider].shape)
    .filter(([key]) => !SEPARATE.has(key))
    .map(([key, schema]) => viewOf(key, schema as z.ZodType));
}

/**
 * The settings the server describes for a transcriber (GET /transcribers/{provider} `fields`);
 * when it gives none or they cannot be read, the contract's schema decides, so the editor always
 * shows the spec's fields.
 */
export function sttFields(provider: SttProviderId, serverFields: unknown): SttFieldView[] {
  const parsed = z.array(SttFieldSpec).safeParse(serverFields);
  if (!parsed.success || parsed.data.length === 0) return sttFieldsFromSchema(provider);
  return parsed.data.filter((field) => !SEPARATE.has(field.name)).map(({ name, ...rest }) => ({ key: name, ...rest }));
}
