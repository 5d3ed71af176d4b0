import { DOCUMENT_LIMITS } from "@parley/contract";
import { ExtractionError, type Section, SectionBuilder } from "./section.ts";

/** pdf.js is large: loaded on the first PDF, not at every server start (memory and start time). */
const loadPdfJs = () => import("pdfjs-dist/legacy/build/pdf.mjs");

/** A page object's type entry (`/Type /Page`, not `/Pages`) as written in the file's bytes. */
const PAGE_OBJECT = /\/Type\s*\/Page(?![a-zA-Z])/g;

const tooManyPages = (pages: number) =>
  new ExtractionError(
    `The PDF has ${pages.toLocaleString("en-US")} pages; the knowledge base reads at most ${DOCUMENT_LIMITS.pages.toLocaleString("en-US")} pages from one file. Split it into smaller files.`,
    "too_many_pages",
  );

/**
 * Pages counted in the bytes, before pdf.js parses anything: opening a 20,000-page file took pdf.js
 * ≈ 10 s and 400 MB. Page objects packed into compressed object streams are not seen here; pdf.js's
 * own count below catches those.
 */
function checkPagesWritten(data: Buffer): void {
  const written = data.toString("latin1").match(PAGE_OBJECT)?.length ?? 0;
  if (written > DOCUMENT_LIMITS.pages) throw tooManyPages(written);
}

/** A PDF's text, page by page; each page is a section headed "Page N" so answers can cite it. */
export async function pdfSections(data: Buffer): Promise<{ sections: Section[]; pages: number }> {
  checkPagesWritten(data);
  const { getDocument } = await loadPdfJs();
  let pdf: Awaited<ReturnType<typeof getDocument>["promise"]>;
  try {
    pdf = await getDocument({ data: new Uint8Array(data), isEvalSupported: false, verbosity: 0 }).promise;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ExtractionError(`The PDF could not be read (${reason.replace(/\.$/, "")}).`);
  }
  try {
    // The page count is read from the document's page tree before any page is: a 20,000-page file
    // is refused at once rather than after minutes of reading.
    if (pdf.numPages > DOCUMENT_LIMITS.pages) throw tooManyPages(pdf.numPages);
    const out = new SectionBuilder();
    for (let n = 1; n <= pdf.numPages; n += 1) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join("");
      out.heading(1, `Page ${n}`);
      for (const block of text.split(/\n\s*\n/)) out.paragraph(block.replace(/\s*\n\s*/g, " "));
      page.cleanup();
    }
    const sections = out.build();
    if (sections.length === 0) throw new ExtractionError("The PDF has no text to read (is it a scan?).");
    return { sections, pages: pdf.numPages };
  } finally {
    await pdf.destroy();
  }
}
