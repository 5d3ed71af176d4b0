/** How the schema field turns the form's value into text and back. */

export interface SchemaReading {
  /** What the form holds: null for no schema, the parsed JSON, or the raw text while it is not JSON. */
  value: unknown;
  /** The text parsed as JSON. */
  json: boolean;
  /** The parser's message when the text is not JSON. */
  syntaxError?: string;
}

/** The text for a form value: raw text stays as typed, an object is pretty-printed, no schema is empty. */
export function schemaText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2);
}

export function readSchemaText(text: string): SchemaReading {
  if (text.trim() === "") return { value: null, json: false };
  try {
    return { value: JSON.parse(text) as unknown, json: true };
  } catch (error) {
    return { value: text, json: false, syntaxError: error instanceof Error ? error.message : String(error) };
  }
}
