/**
 * A first look at a contacts CSV in the browser, before anything is sent: the separator, whether the
 * first line is a header, which column holds the numbers, the first rows and the rows that will be
 * refused. The server reads the file again on import and is the authority (E.164 with the default
 * country, the do-not-call list, duplicates across the whole campaign).
 */

export interface CsvPreviewRow {
  line: number;
  number: string;
  variables: Record<string, string>;
}

export interface CsvPreviewProblem {
  line: number;
  value: string;
  reason: "invalid" | "duplicate";
}

export interface CsvPreview {
  separator: "," | ";" | "\t";
  hasHeader: boolean;
  phoneColumn: string;
  variableColumns: string[];
  /** Data rows in the file (header excluded). */
  total: number;
  rows: CsvPreviewRow[];
  problems: CsvPreviewProblem[];
}

export type CsvPreviewResult =
  | { ok: true; preview: CsvPreview }
  | { ok: false; reason: "empty" | "malformed"; line: number };

const PHONE_HEADERS = ["phone", "phone_number", "phonenumber", "number", "mobile", "telephone", "tel"];
const SEPARATORS = [",", ";", "\t"] as const;
/** What a phone number may look like before normalisation: digits with +, spaces, dashes, dots and brackets. */
const PHONE_LIKE = /^\+?[\d\s().-]{6,20}$/;

/** Splits CSV text into records (RFC 4180 quotes, CRLF or LF); null at an unclosed quote. */
export function splitCsv(text: string, separator: string): { records: string[][]; badLine: number } | null {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        field += c;
      }
    } else if (c === '"' && field === "") quoted = true;
    else if (c === separator) {
      record.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      line++;
      recordLine = line;
    } else field += c;
  }
  if (quoted) return { records, badLine: recordLine };
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return { records: records.filter((r) => r.some((f) => f.trim() !== "")), badLine: 0 };
}

/** The separator that splits the first line into the most columns (a comma when none does). */
function guessSeparator(firstLine: string): CsvPreview["separator"] {
  let best: CsvPreview["separator"] = ",";
  let most = 0;
  for (const s of SEPARATORS) {
    const count = firstLine.split(s).length - 1;
    if (count > most) {
      most = count;
      best = s;
    }
  }
  return best;
}

const digitsOf = (value: string) => value.replace(/[^\d+]/g, "");

/** Reads the preview from a CSV's text (a byte order mark is dropped); `limit` rows are kept. */
export function previewCsv(raw: string, limit = 20): CsvPreviewResult {
  const text = raw.replace(/^\uFEFF/, "");
  const separator = guessSeparator(text.split(/\r?\n/, 1)[0] ?? "");
  const split = splitCsv(text, separator);
  if (!split) return { ok: false, reason: "malformed", line: 1 };
  if (split.badLine) return { ok: false, reason: "malformed", line: split.badLine };
  const records = split.records;
  const first = records[0];
  if (!first) return { ok: false, reason: "empty", line: 0 };
  const names = first.map((h) => h.trim().toLowerCase());
  const named = names.findIndex((h) => PHONE_HEADERS.includes(h));
  // A first line with no phone-like cell is a header even when no column is called "phone".
  const hasHeader = named >= 0 || !first.some((cell) => PHONE_LIKE.test(cell.trim()));
  const phoneIndex = Math.max(named, 0);
  const headers = hasHeader
    ? first.map((h, i) => h.trim() || `column_${i + 1}`)
    : first.map((_, i) => `column_${i + 1}`);
  const body = hasHeader ? records.slice(1) : records;
  const offset = hasHeader ? 2 : 1;
  const rows: CsvPreviewRow[] = [];
  const problems: CsvPreviewProblem[] = [];
  const seen = new Map<string, number>();
  body.forEach((record, i) => {
    const line = i + offset;
    const value = (record[phoneIndex] ?? "").trim();
    if (!PHONE_LIKE.test(value)) {
      problems.push({ line, value, reason: "invalid" });
      return;
    }
    const key = digitsOf(value);
    if (seen.has(key)) {
      problems.push({ line, value, reason: "duplicate" });
      return;
    }
    seen.set(key, line);
    if (rows.length < limit) {
      const variables: Record<string, string> = {};
      headers.forEach((h, c) => {
        if (c !== phoneIndex && record[c] !== undefined && record[c].trim() !== "") variables[h] = record[c].trim();
      });
      rows.push({ line, number: value, variables });
    }
  });
  return {
    ok: true,
    preview: {
      separator,
      hasHeader,
      phoneColumn: headers[phoneIndex] ?? "column_1",
      variableColumns: headers.filter((_, c) => c !== phoneIndex),
      total: body.length,
      rows,
      problems,
    },
  };
}
