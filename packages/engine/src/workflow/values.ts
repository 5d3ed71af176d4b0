import type { WorkflowValue, WorkflowValues, WorkflowVariable } from "@parley/contract";

type VariableType = Pick<WorkflowVariable, "type" | "enum_values">;

const TRUE_WORDS = new Set(["true", "yes", "y", "1"]);
const FALSE_WORDS = new Set(["false", "no", "n", "0"]);
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/** Text a value may stand for; null for objects, arrays and empty text. */
function textOf(raw: unknown): string | null {
  if (typeof raw === "string") return raw.trim() || null;
  if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
  if (typeof raw === "boolean") return String(raw);
  return null;
}

function toNumber(raw: unknown): number | null {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : null;
  const text = textOf(raw);
  if (text === null) return null;
  // "1,250", "$ 40", "3_000": grouping and a leading currency sign are how people and models write numbers.
  const cleaned = text.replace(/^[$€£¥]/, "").replace(/[\s,_]/g, "");
  return NUMBER.test(cleaned) ? Number(cleaned) : null;
}

function toBoolean(raw: unknown): boolean | null {
  if (typeof raw === "boolean") return raw;
  const text = textOf(raw)?.toLowerCase();
  if (text === undefined) return null;
  if (TRUE_WORDS.has(text)) return true;
  if (FALSE_WORDS.has(text)) return false;
  return null;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A calendar date as YYYY-MM-DD; "2026-02-30" and other impossible dates are not dates. */
function toDate(raw: unknown): string | null {
  const text = textOf(raw);
  if (text === null) return null;
  const iso = ISO_DATE.exec(text);
  if (iso) {
    const [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
    return real ? `${iso[1]}-${iso[2]}-${iso[3]}` : null;
  }
  if (!/[a-z]/i.test(text) || !/\d/.test(text)) return null;
  const parsed = new Date(text);
  if (Number.isNaN(parsed.getTime())) return null;
  return `${parsed.getFullYear()}-${pad(parsed.getMonth() + 1)}-${pad(parsed.getDate())}`;
}

function toEnum(raw: unknown, values: readonly string[]): string | null {
  const text = textOf(raw)?.toLowerCase();
  return values.find((v) => v.toLowerCase() === text) ?? null;
}

/**
 * A raw value (what the model extracted, a tool's result, a campaign contact's column) as the
 * variable's type: numbers and booleans typed, dates YYYY-MM-DD, enum values spelt as declared.
 * Null when it does not read as that type.
 */
export function coerceValue(variable: VariableType, raw: unknown): WorkflowValue {
  switch (variable.type) {
    case "string":
      return textOf(raw);
    case "number":
      return toNumber(raw);
    case "boolean":
      return toBoolean(raw);
    case "date":
      return toDate(raw);
    case "enum":
      return toEnum(raw, variable.enum_values ?? []);
  }
}

/** True when a variable holds a value (not null, not empty text). */
export function isSet(value: WorkflowValue | undefined): boolean {
  return value !== null && value !== undefined && value !== "";
}

/** Every declared variable, null unless `seed` (a contact's columns) holds a value of its type. */
export function initialValues(
  variables: readonly WorkflowVariable[],
  seed: Record<string, unknown> = {},
): WorkflowValues {
  return Object.fromEntries(variables.map((v) => [v.name, coerceValue(v, seed[v.name])]));
}
