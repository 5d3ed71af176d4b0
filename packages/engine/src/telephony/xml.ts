/** Escapes text for an XML attribute value or element content (markup answers). */
export function xmlEscape(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** `name="value"` pairs for the attributes that are set, in the given order. */
export function xmlAttributes(attributes: Record<string, string | undefined>): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${xmlEscape(value)}"`)
    .join("");
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** A markup document: the declaration and one `<Response>` holding the given verbs. */
export function xmlResponse(inner: string): string {
  return `${XML_DECLARATION}<Response>${inner}</Response>`;
}
