import { type Section, SectionBuilder } from "./section.ts";

/** Splits CSV text into rows of cells (RFC 4180 quoting) with the given delimiter. */
export function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === "") quoted = true;
    else if (c === delimiter) {
      row.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i += 1;
      row.push(cell);
      if (row.some((v) => v.trim())) rows.push(row);
      row = [];
      cell = "";
    } else cell += c;
  }
  row.push(cell);
  if (row.some((v) => v.trim())) rows.push(row);
  return rows;
}

/** The delimiter that splits the first lines into the same number (> 1) of cells, if any. */
export function csvDelimiter(text: string): string | null {
  const lines = text
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .slice(0, 20);
  if (lines.length < 2) return null;
  for (const d of [",", ";", "\t", "|"]) {
    const counts = parseCsv(lines.join("\n"), d).map((r) => r.length);
    const first = counts[0] ?? 0;
    if (first > 1 && counts.every((n) => n === first)) return d;
  }
  return null;
}

/** Each row becomes one record, "Column: value; …", so a chunk never splits a row from its header. */
export function csvSections(text: string, delimiter: string): Section[] {
  const [header = [], ...rows] = parseCsv(text, delimiter);
  const names = header.map((h, i) => h.trim() || `Column ${i + 1}`);
  const out = new SectionBuilder();
  for (const row of rows) {
    out.paragraph(
      row
        .map((value, i) => (value.trim() ? `${names[i] ?? `Column ${i + 1}`}: ${value.trim()}` : ""))
        .filter(Boolean)
        .join("; "),
    );
  }
  return out.build();
}
