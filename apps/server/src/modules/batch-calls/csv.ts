/**
 * A small RFC 4180 reader: quoted fields with doubled quotes and line breaks, CRLF or LF, a UTF-8
 * byte-order mark, and the separator guessed from the first line (",", ";" as spreadsheets in many
 * locales write it, or tab). A file it cannot read is refused whole, with the line it broke on, so
 * an import is never applied half-way.
 */

export type CsvSeparator = "," | ";" | "\t";

export interface CsvRow {
  /** 1-based line of the file where the row starts. */
  line: number;
  cells: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = "CsvSyntaxError";
  }
}

/** The separator that occurs most in the first line outside quotes (comma when none does). */
export function guessSeparator(text: string): CsvSeparator {
  const counts: Record<CsvSeparator, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && (ch === "," || ch === ";" || ch === "\t")) counts[ch] += 1;
  }
  const best = (Object.keys(counts) as CsvSeparator[]).reduce((a, b) => (counts[b] > counts[a] ? b : a), ",");
  return best;
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Decodes the upload as UTF-8; a file that is not valid UTF-8 is refused rather than garbled. */
export function decodeCsv(data: Buffer): string {
  try {
    return stripBom(new TextDecoder("utf-8", { fatal: true }).decode(data));
  } catch {
    throw new CsvSyntaxError(1, "the file is not UTF-8 text");
  }
}

/** Every non-blank row of the text. Throws CsvSyntaxError on an unclosed quote or text after a closing quote. */
export function parseCsv(text: string, separator: CsvSeparator = guessSeparator(text)): CsvRow[] {
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let cell = "";
  let line = 1;
  let rowLine = 1;
  let i = 0;
  const endRow = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0]?.trim()) rows.push({ line: rowLine, cells });
    cells = [];
    cell = "";
  };
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' && cell.trim() === "") {
      const start = line;
      cell = "";
      i += 1;
      for (;;) {
        if (i >= text.length) throw new CsvSyntaxError(start, "a quoted field is never closed");
        const c = text[i];
        if (c === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (c === "\n") line += 1;
        cell += c;
        i += 1;
      }
      // Only spaces may follow a closing quote before the separator or the end of the line.
      while (text[i] === " ") i += 1;
      const next = text[i];
      if (next !== undefined && next !== separator && next !== "\n" && next !== "\r")
        throw new CsvSyntaxError(line, "text after a closing quote");
      continue;
    }
    if (ch === separator) {
      cells.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      endRow();
      if (ch === "\r" && text[i + 1] === "\n") i += 1;
      line += 1;
      rowLine = line;
    } else if (ch === '"') {
      throw new CsvSyntaxError(line, "a quote inside an unquoted field");
    } else {
      cell += ch;
    }
    i += 1;
  }
  if (cell !== "" || cells.length > 0) endRow();
  return rows;
}
