/** Why a parameters text is not a usable JSON Schema object, or the parsed schema. */
export type ParametersCheck =
  | { ok: true; schema: Record<string, unknown> }
  | { ok: false; reason: "invalidJson"; detail: string }
  | { ok: false; reason: "notObject" | "notObjectSchema" | "badProperties" };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks the parameters editor's text: it must parse, be an object, describe an object
 * (`"type": "object"`, which is what language models accept for tool arguments) and, when it lists
 * properties, list them as an object.
 */
export function checkParameters(text: string): ParametersCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: "invalidJson", detail: error instanceof Error ? error.message : String(error) };
  }
  if (!isPlainObject(parsed)) return { ok: false, reason: "notObject" };
  if (parsed.type !== "object") return { ok: false, reason: "notObjectSchema" };
  if (parsed.properties !== undefined && !isPlainObject(parsed.properties))
    return { ok: false, reason: "badProperties" };
  return { ok: true, schema: parsed };
}

export const EMPTY_PARAMETERS = { type: "object", properties: {}, required: [] };

/** Pretty JSON for the editors. */
export const prettyJson = (value: unknown) => JSON.stringify(value, null, 2);
