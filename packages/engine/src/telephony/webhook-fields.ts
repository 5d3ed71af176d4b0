import { isRecord, parseForm, stringRecord } from "./form.ts";

/**
 * A webhook body's top-level fields whatever its encoding: vendors that speak both a
 * form-encoded markup dialect and a JSON one send either, so both read the same.
 */
export function webhookFields(rawBody: string): Record<string, string> {
  const trimmed = rawBody.trimStart();
  if (!trimmed.startsWith("{")) return parseForm(rawBody);
  try {
    const value: unknown = JSON.parse(trimmed);
    return isRecord(value) ? stringRecord(value) : {};
  } catch {
    return {};
  }
}
