/**
 * The first complaint in react-hook-form's errors (nested as the form's fields are), in the
 * schema's order, which is the editor's from top to bottom.
 */
export function firstMessage(errors: object): string | undefined {
  for (const [key, value] of Object.entries(errors)) {
    // `ref` is the field's DOM element: nothing to read there, and a walk into it would never end.
    if (key === "ref" || key === "types" || !value || typeof value !== "object") continue;
    if ("message" in value && typeof value.message === "string" && value.message) return value.message;
    const inner = firstMessage(value);
    if (inner) return inner;
  }
  return undefined;
}
