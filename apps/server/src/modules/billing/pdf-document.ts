/**
 * A minimal PDF 1.4 writer for text documents (statements): A4 pages, the standard Helvetica fonts
 * (no font files to embed), text placed at given positions and thin rules. Written by hand so the
 * server needs no PDF library; every PDF reader opens it.
 */

export interface PdfText {
  x: number;
  y: number;
  text: string;
  size?: number;
  bold?: boolean;
  /** Right-aligned at `x` (amounts), estimated from Helvetica's average width. */
  alignRight?: boolean;
}

export interface PdfRule {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface PdfPage {
  texts: PdfText[];
  rules: PdfRule[];
}

export const PAGE_WIDTH = 595;
export const PAGE_HEIGHT = 842;

/** Latin-1 text inside a PDF string: backslash and parentheses escaped, other characters replaced. */
function pdfString(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 63;
    if (ch === "\\" || ch === "(" || ch === ")") out += `\\${ch}`;
    else if (code >= 32 && code < 127) out += ch;
    else if (code >= 160 && code <= 255) out += `\\${code.toString(8).padStart(3, "0")}`;
    else out += "?";
  }
  return out;
}

/** Helvetica's glyphs average about half the font size in width. */
const textWidth = (text: string, size: number, bold: boolean) => text.length * size * (bold ? 0.56 : 0.52);

function pageContent(page: PdfPage): string {
  const parts: string[] = ["0.6 w"];
  for (const r of page.rules) parts.push(`${r.x1} ${r.y1} m ${r.x2} ${r.y2} l S`);
  for (const t of page.texts) {
    const size = t.size ?? 10;
    const bold = t.bold ?? false;
    const x = t.alignRight ? t.x - textWidth(t.text, size, bold) : t.x;
    parts.push(`BT /${bold ? "F2" : "F1"} ${size} Tf ${x.toFixed(2)} ${t.y} Td (${pdfString(t.text)}) Tj ET`);
  }
  return parts.join("\n");
}

/** The bytes of a PDF with these pages and a document title. */
export function renderPdf(pages: PdfPage[], title: string): Buffer {
  const objects: string[] = [];
  const add = (body: string) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add("");
  const pagesId = add("");
  const regular = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const bold = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
  const info = add(`<< /Title (${pdfString(title)}) /Producer (Parley) >>`);
  const pageIds = pages.map((page) => {
    const content = pageContent(page);
    const stream = add(`<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`);
    return add(
      `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
        `/Resources << /Font << /F1 ${regular} 0 R /F2 ${bold} 0 R >> >> /Contents ${stream} 0 R >>`,
    );
  });
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objects[pagesId - 1] =
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pageIds.length} >>`;

  let pdf = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, "latin1"));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, "latin1");
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}
