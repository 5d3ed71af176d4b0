/**
 * A strict reader of the XML subset a JUnit report uses (declaration, elements, attributes, text,
 * character and the five predefined entity references), for tests to read a report back. It throws
 * at the first thing XML 1.0 forbids (a raw `<` or `&`, an unmatched or unquoted tag, a control
 * character, a duplicate attribute), which is what makes "well-formed" a test rather than a hope.
 */

export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: (XmlNode | string)[];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

const isNameStart = (c: string) => (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || c === "_" || c === ":";
const isNameChar = (c: string) => isNameStart(c) || (c >= "0" && c <= "9") || c === "-" || c === ".";
const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\n" || c === "\r";

export function parseXml(text: string): XmlNode {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    // A lone surrogate iterates as itself, and is not an XML character either.
    if (!isXmlChar(code)) throw new Error(`character U+${code.toString(16)} is not allowed in XML`);
  }
  let pos = 0;
  const fail = (message: string): never => {
    throw new Error(`${message} at offset ${pos}: ${JSON.stringify(text.slice(pos, pos + 30))}`);
  };
  const skipSpace = () => {
    while (isSpace(text[pos])) pos++;
  };
  const expect = (literal: string) => {
    if (!text.startsWith(literal, pos)) fail(`expected ${JSON.stringify(literal)}`);
    pos += literal.length;
  };
  const name = (): string => {
    const start = pos;
    if (!isNameStart(text[pos] ?? "")) fail("expected a name");
    while (isNameChar(text[pos] ?? "")) pos++;
    return text.slice(start, pos);
  };
  /** A reference after its `&`. */
  const reference = (): string => {
    const end = text.indexOf(";", pos);
    if (end === -1 || end - pos > 10) return fail("unterminated reference");
    const body = text.slice(pos, end);
    pos = end + 1;
    if (body.startsWith("#")) {
      const code = body.startsWith("#x") ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      if (!Number.isInteger(code) || !isXmlChar(code)) fail(`reference &${body}; names no XML character`);
      return String.fromCodePoint(code);
    }
    return ENTITIES[body] ?? fail(`unknown entity &${body};`);
  };
  const attributeValue = (): string => {
    const quote = text[pos];
    if (quote !== '"' && quote !== "'") return fail("attribute value must be quoted");
    pos++;
    let value = "";
    while (text[pos] !== quote) {
      const c = text[pos];
      if (c === undefined || c === "<") fail("unterminated attribute or raw < in it");
      pos++;
      if (c === "&") value += reference();
      else value += isSpace(c) ? " " : c; // attribute-value normalisation
    }
    pos++;
    return value;
  };
  const elementAt = (): XmlNode => {
    expect("<");
    const node: XmlNode = { name: name(), attributes: {}, children: [] };
    for (;;) {
      const hadSpace = isSpace(text[pos]);
      skipSpace();
      if (text.startsWith("/>", pos)) {
        pos += 2;
        return node;
      }
      if (text[pos] === ">") break;
      if (!hadSpace) fail("attributes need space between them");
      const key = name();
      if (key in node.attributes) fail(`duplicate attribute ${key}`);
      skipSpace();
      expect("=");
      skipSpace();
      node.attributes[key] = attributeValue();
    }
    pos++;
    let textRun = "";
    for (;;) {
      const c = text[pos];
      if (c === undefined) fail(`<${node.name}> is never closed`);
      if (text.startsWith("]]>", pos)) fail("]]> in text");
      if (c === "<") {
        if (textRun) node.children.push(textRun);
        textRun = "";
        if (text.startsWith("</", pos)) {
          pos += 2;
          const closing = name();
          if (closing !== node.name) fail(`</${closing}> closes <${node.name}>`);
          skipSpace();
          expect(">");
          return node;
        }
        node.children.push(elementAt());
        continue;
      }
      pos++;
      if (c === "&") textRun += reference();
      else if (c === "\r") {
        // Line ends are normalised as the document is read; a &#13; reference is not a line end.
        if (text[pos] === "\n") pos++;
        textRun += "\n";
      } else textRun += c;
    }
  };

  if (text.startsWith("<?xml")) {
    const end = text.indexOf("?>");
    if (end === -1) fail("unterminated declaration");
    pos = end + 2;
  }
  skipSpace();
  const root = elementAt();
  skipSpace();
  if (pos !== text.length) fail("content after the root element");
  return root;
}

/** The element children named `name`. */
export function childrenNamed(node: XmlNode, name: string): XmlNode[] {
  return node.children.filter((c): c is XmlNode => typeof c !== "string" && c.name === name);
}

/** The text inside an element (its direct text children joined). */
export function textOf(node: XmlNode): string {
  return node.children.filter((c): c is string => typeof c === "string").join("");
}
