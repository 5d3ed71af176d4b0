import { STT_CONFIG_SCHEMAS, SttFieldSpec, type SttProviderId } from "@parley/contract";
import { z } from "zod";

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

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodDefault || current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

function finite(value: number | null | undefined) {
  return value !== null && value !== undefined && Number.isFinite(value) ? value : undefined;
}

function viewOf(key: string, schema: z.ZodType): SttFieldView {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodBoolean) return { key, kind: "boolean" };
  if (inner instanceof z.ZodNumber) {
    const view: SttFieldView = { key, kind: "number" };
    const min = finite(inner.minValue);
    const max = finite(inner.maxValue);
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
