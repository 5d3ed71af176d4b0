import { STT_CONFIG_SCHEMAS, type SttProviderId } from "@parley/contract";
import { z } from "zod";

/** How one transcriber setting is edited. */
export type SttFieldSpec =
  | { key: string; kind: "boolean" }
  | { key: string; kind: "number"; min?: number; max?: number }
  | { key: string; kind: "text" }
  | { key: string; kind: "select"; options: string[] }
  | { key: string; kind: "list" };

/** The model is edited on its own (it has its own option list), so it is not a config field. */
const SEPARATE = new Set(["model"]);

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodDefault || current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

function specOf(key: string, schema: z.ZodType): SttFieldSpec {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodBoolean) return { key, kind: "boolean" };
  if (inner instanceof z.ZodNumber) {
    return {
      key,
      kind: "number",
      ...(inner.minValue !== null && Number.isFinite(inner.minValue) ? { min: inner.minValue } : {}),
      ...(inner.maxValue !== null && Number.isFinite(inner.maxValue) ? { max: inner.maxValue } : {}),
    };
  }
  if (inner instanceof z.ZodEnum) return { key, kind: "select", options: inner.options.map(String) };
  if (inner instanceof z.ZodArray) return { key, kind: "list" };
  return { key, kind: "text" };
}

/** The settings of a transcriber (spec §3) as the contract's schema defines them, in its order. */
export function sttFieldsFromSchema(provider: SttProviderId): SttFieldSpec[] {
  return Object.entries(STT_CONFIG_SCHEMAS[provider].shape)
    .filter(([key]) => !SEPARATE.has(key))
    .map(([key, schema]) => specOf(key, schema as z.ZodType));
}

const ServerField = z.object({
  key: z.string().min(1),
  type: z.string(),
  options: z.array(z.union([z.string(), z.object({ value: z.string() })])).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
});

/**
 * The settings the server describes for a transcriber, when it does; anything unreadable falls
 * back to the contract's schema so the editor always shows the spec's fields.
 */
export function sttFields(provider: SttProviderId, serverFields: unknown): SttFieldSpec[] {
  const parsed = z.array(ServerField).safeParse(serverFields);
  if (!parsed.success || parsed.data.length === 0) return sttFieldsFromSchema(provider);
  const fromSchema = new Map(sttFieldsFromSchema(provider).map((spec) => [spec.key, spec]));
  return parsed.data
    .filter((field) => !SEPARATE.has(field.key))
    .map((field): SttFieldSpec => {
      const options = field.options?.map((o) => (typeof o === "string" ? o : o.value));
      if (options && options.length > 0) return { key: field.key, kind: "select", options };
      switch (field.type) {
        case "boolean":
          return { key: field.key, kind: "boolean" };
        case "number":
        case "integer":
          return { key: field.key, kind: "number", min: field.min, max: field.max };
        case "array":
        case "list":
        case "string[]":
          return { key: field.key, kind: "list" };
        default:
          return fromSchema.get(field.key) ?? { key: field.key, kind: "text" };
      }
    });
}
