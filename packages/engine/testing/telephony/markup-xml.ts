/**
 * A small XML reader for the call markup the doubles receive (TwiML, TeXML, Plivo XML). The vendors
 * parse whatever the webhook answers; the doubles need only elements, attributes and text, so a
 * focused reader keeps them free of a parser dependency. Malformed markup throws, as the vendors
 * reject it (Twilio error 12100 "Document parse failure").
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (trimmed), without its children's. */
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, code: string) => {
    if (code.startsWith("#x") || code.startsWith("#X")) return String.fromCodePoint(Number.parseInt(code.slice(2), 16));
    if (code.startsWith("#")) return String.fromCodePoint(Number.parseInt(code.slice(1), 10));
    return ENTITIES[code] ?? whole;
  });
}

export class MarkupParseError extends Error {
  override name = "MarkupParseError";
}

/** Parses a document and returns its root element. */
export function parseXml(source: string): XmlElement {
  const body = source
    .replace(/<\?xml[\s\S]*?\?>/g, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .trim();
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const tag = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/gy;
  let match: RegExpExecArray | null;
  let position = 0;
  tag.lastIndex = 0;
  // biome-ignore lint/suspicious/noAssignInExpressions: the usual exec loop
  while ((match = tag.exec(body)) !== null) {
    position = tag.lastIndex;
    const [, closing, name, rawAttributes, selfClosing, text] = match;
    if (text !== undefined) {
      const parent = stack[stack.length - 1];
      if (!parent) {
        if (text.trim() !== "") throw new MarkupParseError("Text outside the root element");
        continue;
      }
      parent.text = `${parent.text}${decodeEntities(text)}`;
      continue;
    }
    if (name === undefined) continue;
    if (closing) {
      const open = stack.pop();
      if (!open || open.name !== name) throw new MarkupParseError(`Unexpected </${name}>`);
      open.text = open.text.trim();
      continue;
    }
    const element: XmlElement = { name, attributes: parseAttributes(rawAttributes ?? ""), children: [], text: "" };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else if (root) throw new MarkupParseError("More than one root element");
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  if (position !== body.length) throw new MarkupParseError(`Unreadable markup at offset ${position}`);
  if (stack.length > 0) throw new MarkupParseError(`Unclosed <${stack[stack.length - 1]?.name}>`);
  if (!root) throw new MarkupParseError("Empty document");
  return root;
}

function parseAttributes(raw: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const m of raw.matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const key = m[1];
    if (key) attributes[key] = decodeEntities(m[2] ?? m[3] ?? "");
  }
  return attributes;
}

/** Escapes text for an attribute or element body. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos" }[c]};`);
}
