import { z } from "zod";

/** The schema under its default/optional/nullable wrappers. */
export function unwrapSchema(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodDefault || current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

const finite = (value: number | null | undefined) =>
  value !== null && value !== undefined && Number.isFinite(value) ? value : undefined;

/** A number schema's min and max, read from the contract so the inputs never drift from what the API accepts. */
export function numberBounds(schema: z.ZodType): { min?: number; max?: number } {
  const inner = unwrapSchema(schema);
  if (!(inner instanceof z.ZodNumber)) return {};
  return { min: finite(inner.minValue), max: finite(inner.maxValue) };
}

/** Both bounds of a bounded number schema (a slider's range); a schema without them is a programming error. */
export function numberRange(schema: z.ZodType): { min: number; max: number } {
  const { min, max } = numberBounds(schema);
  if (min === undefined || max === undefined) throw new Error("The schema has no min and max");
  return { min, max };
}
