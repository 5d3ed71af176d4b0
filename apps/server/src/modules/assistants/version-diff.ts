import type { FieldChange } from "@parley/contract";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Arrays and scalars are compared whole, as their JSON; key order inside objects does not count. */
function sameLeaf(a: unknown, b: unknown): boolean {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

/**
 * The fields that differ between two configurations, by leaf: nested objects (provider configs,
 * analysis settings) are walked so a diff names `llm_provider_config.temperature`, not the whole
 * object; a field present on one side only reads as null on the other.
 */
export function diffConfigs(from: Json, to: Json, prefix = ""): FieldChange[] {
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
  const changes: FieldChange[] = [];
  for (const key of keys) {
    const a = from[key] ?? null;
    const b = to[key] ?? null;
    const field = `${prefix}${key}`;
    if (isObject(a) && isObject(b)) changes.push(...diffConfigs(a, b, `${field}.`));
    else if (!sameLeaf(a, b)) changes.push({ field, from: a, to: b });
  }
  return changes;
}
