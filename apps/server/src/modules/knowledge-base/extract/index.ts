import type { DocumentKind } from "@parley/contract";
import { csvDelimiter, csvSections } from "./csv.ts";
import { docxSections } from "./docx.ts";
import { readablePage } from "./html.ts";
import { markdownSections, textSections } from "./markdown.ts";
import { pdfSections } from "./pdf.ts";
import { ExtractionError, type Section } from "./section.ts";

export { ExtractionError, type Section } from "./section.ts";

const UNSUPPORTED = "This file type is not supported. Upload PDF, Word (DOCX), text, Markdown, HTML or CSV.";

const startsWith = (data: Buffer, magic: string) => data.subarray(0, magic.length).toString("latin1") === magic;

/** UTF-8 text, or null when the bytes are not text (a NUL byte, or invalid UTF-8). */
function asText(data: Buffer): string | null {
  if (data.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data).replace(/^\uFEFF/, "");
  } catch {
    return null;
  }
}

const HTML_START = /^\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body)\b/i;
const HTML_TAGS = /<(p|div|h[1-6]|ul|table|article|section)\b[^>]*>/gi;
const MARKDOWN_LINE = /^(#{1,6}\s+\S|\s*[-*+]\s+\S|\s*\d+[.)]\s+\S|```|>\s)/m;

/** What the bytes are, judged from their content alone (a file's name can lie). */
export function sniffKind(data: Buffer): DocumentKind | null {
  if (startsWith(data, "%PDF-")) return "pdf";
  if (startsWith(data, "PK\u0003\u0004")) {
    // A DOCX is a ZIP whose central directory (stored uncompressed) names word/document.xml.
    return data.includes("word/document.xml") ? "docx" : null;
  }
  const text = asText(data);
  if (text === null) return null;
  if (HTML_START.test(text) || (text.match(HTML_TAGS)?.length ?? 0) >= 2) return "html";
  if (csvDelimiter(text)) return "csv";
  if (MARKDOWN_LINE.test(text)) return "markdown";
  return "text";
}

export interface Extracted {
  kind: DocumentKind;
  sections: Section[];
  /** Pages for a PDF (for throughput figures); 1 otherwise. */
  pages: number;
}

/** Reads a file into sections, or throws an ExtractionError with a sentence for the user. */
export async function extractDocument(data: Buffer): Promise<Extracted> {
  const kind = sniffKind(data);
  if (!kind) throw new ExtractionError(UNSUPPORTED);
  const text = () => asText(data) ?? "";
  let sections: Section[];
  let pages = 1;
  switch (kind) {
    case "pdf": {
      const pdf = await pdfSections(data);
      sections = pdf.sections;
      pages = pdf.pages;
      break;
    }
    case "docx":
      sections = await docxSections(data);
      break;
    case "html":
      sections = readablePage(text()).sections;
      break;
    case "csv":
      sections = csvSections(text(), csvDelimiter(text()) ?? ",");
      break;
    case "markdown":
      sections = markdownSections(text());
      break;
    default:
      sections = textSections(text());
  }
  if (sections.length === 0) throw new ExtractionError("The document has no text to index.");
  return { kind, sections, pages };
}
