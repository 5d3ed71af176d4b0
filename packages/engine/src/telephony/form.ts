/** Form-encoded webhook bodies and request headers, as telephony vendors send them. */

/** The fields of an `application/x-www-form-urlencoded` body; a repeated field keeps its last value. */
export function parseForm(raw: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(raw));
}

/**
 * A form body from fields; an array repeats its field (`StatusCallbackEvent=a&StatusCallbackEvent=b`),
 * undefined leaves it out.
 */
export function encodeForm(fields: Record<string, string | readonly string[] | undefined>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (typeof value === "string") form.append(name, value);
    else for (const item of value) form.append(name, item);
  }
  return form;
}

/** A header by name, whatever case the server stored it in. */
export function headerValue(headers: Record<string, string | undefined>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

/** Reads a JSON webhook body as an object, or an empty one when it is not JSON. */
export function parseJsonObject(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A nested object field, or an empty object. */
export function objectField(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = record[key];
  return isRecord(value) ? value : {};
}

/** A string (or number, as text) field, or "". */
export function stringField(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return "";
}

/** A field's string values as a record (custom parameters, headers), dropping non-strings. */
export function stringRecord(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === "string") out[key] = item;
    else if (typeof item === "number" || typeof item === "boolean") out[key] = String(item);
  }
  return out;
}
