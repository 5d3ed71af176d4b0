import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { type Section, SectionBuilder } from "./section.ts";

type DomDocument = ReturnType<typeof parseHTML>["document"];
type DomNode = DomDocument["body"];

const HEADINGS = new Set(["H1", "H2", "H3", "H4", "H5", "H6"]);
/** Elements read as one paragraph each (their inner markup is flattened). */
const BLOCKS = new Set(["P", "LI", "PRE", "BLOCKQUOTE", "DT", "DD", "FIGCAPTION", "CAPTION", "TR", "ADDRESS"]);
const SKIPPED = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG", "NAV", "FOOTER", "FORM", "BUTTON"]);

function walk(node: DomNode, out: SectionBuilder): void {
  for (const child of Array.from(node.childNodes) as DomNode[]) {
    if (child.nodeType === 3) {
      out.paragraph(child.textContent ?? "");
      continue;
    }
    if (child.nodeType !== 1) continue;
    const tag = child.tagName.toUpperCase();
    if (SKIPPED.has(tag)) continue;
    if (HEADINGS.has(tag)) out.heading(Number(tag.slice(1)), child.textContent ?? "");
    else if (tag === "TR")
      out.paragraph(
        (Array.from(child.children) as DomNode[]).map((cell) => (cell.textContent ?? "").trim()).join(" | "),
      );
    else if (BLOCKS.has(tag) && !child.querySelector("p, li, h1, h2, h3, h4, h5, h6, table"))
      out.paragraph(child.textContent ?? "");
    else walk(child, out);
  }
}

/** The body of an HTML fragment (linkedom builds a body only from a whole document). */
export const fragmentBody = (html: string): DomNode =>
  parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`).document.body;

/** The sections of an HTML fragment or page body, headings kept. */
export function domSections(root: DomNode): Section[] {
  const out = new SectionBuilder();
  walk(root, out);
  return out.build();
}

export interface ReadablePage {
  title: string;
  sections: Section[];
  /** Every link's href as written, in page order. */
  links: string[];
}

/**
 * The readable part of a web page (Readability, as Firefox's reader view does), falling back to
 * the whole body when Readability finds no article.
 */
export function readablePage(html: string): ReadablePage {
  const { document } = parseHTML(html);
  const title = (document.querySelector("title")?.textContent ?? "").trim();
  // Readability changes the tree it reads; give it its own copy.
  const article = new Readability(parseHTML(html).document).parse();
  const sections = article?.content ? domSections(fragmentBody(article.content)) : [];
  return {
    title: article?.title?.trim() || title,
    sections: sections.length > 0 ? sections : domSections(document.body),
    links: (Array.from(document.querySelectorAll("a[href]")) as DomNode[]).map((a) => a.getAttribute("href") ?? ""),
  };
}
