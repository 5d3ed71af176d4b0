import { BATCH_CALL_MAX_CONTACTS, BATCH_CALL_TEXTS, type CsvLayout } from "@parley/contract";
import { AppError } from "../../lib/app-error.ts";
import { normaliseNumber } from "../phone-numbers/number-format.ts";
import type { RawContact } from "./contact-list.ts";
import { type CsvRow, CsvSyntaxError, decodeCsv, guessSeparator, parseCsv } from "./csv.ts";

const PHONE_HEADERS = /^(phone|phone_?number|number|mobile|mobile_?number|cell|tel|telephone|msisdn|to|destination)$/;
const TIMEZONE_HEADERS = /^(timezone|time_?zone|tz)$/;

/** "First Name" → "first_name": the variable's name in the prompt ({{first_name}}). */
export function variableName(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

const looksLikeNumber = (cell: string | undefined, country: string | null) =>
  cell !== undefined && /\d{3}/.test(cell) && normaliseNumber(cell, country) !== null;

/** The column most of the first rows have a phone number in (-1 when none does). */
function numberColumn(rows: readonly CsvRow[], country: string | null): number {
  const sample = rows.slice(0, 20);
  const width = Math.max(0, ...sample.map((r) => r.cells.length));
  for (let col = 0; col < width; col += 1) {
    const hits = sample.filter((r) => looksLikeNumber(r.cells[col], country)).length;
    if (hits > 0 && hits * 2 >= sample.length) return col;
  }
  return -1;
}

export interface CsvContacts {
  layout: CsvLayout;
  rows: RawContact[];
}

function malformed(error: CsvSyntaxError): AppError {
  return new AppError("validation", BATCH_CALL_TEXTS.csvMalformed(error.line, error.reason));
}

/**
 * Reads a contacts CSV: a header when the first row has no phone number in it (its phone column
 * named phone, phone_number, number…, else the column holding numbers), every other column a
 * variable named after its header (column_2… without one), a timezone column when named so. A file
 * that cannot be parsed, or whose rows are wider than the header, is refused whole (422).
 */
export function readContactsCsv(data: Buffer, country: string | null): CsvContacts {
  let rows: CsvRow[];
  let separator: CsvLayout["separator"];
  try {
    const text = decodeCsv(data);
    separator = guessSeparator(text);
    rows = parseCsv(text, separator);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw malformed(error);
    throw error;
  }
  const [first] = rows;
  if (!first) throw new AppError("validation", BATCH_CALL_TEXTS.csvEmpty);
  const hasHeader = !first.cells.some((cell) => looksLikeNumber(cell, country));
  const body = hasHeader ? rows.slice(1) : rows;
  if (body.length === 0) throw new AppError("validation", BATCH_CALL_TEXTS.csvEmpty);
  if (body.length > BATCH_CALL_MAX_CONTACTS) throw new AppError("validation", BATCH_CALL_TEXTS.tooManyNumbers);
  const names = hasHeader
    ? first.cells.map((cell, i) => variableName(cell) || `column_${i + 1}`)
    : Array.from({ length: Math.max(...body.map((r) => r.cells.length)) }, (_, i) => `column_${i + 1}`);
  const width = names.length;
  const wide = body.find((r) => r.cells.length > width);
  if (hasHeader && wide)
    throw malformed(new CsvSyntaxError(wide.line, `${wide.cells.length} fields where the header has ${width}`));
  let phone = hasHeader ? names.findIndex((n) => PHONE_HEADERS.test(n)) : -1;
  if (phone < 0) phone = numberColumn(body, country);
  if (phone < 0) throw new AppError("validation", BATCH_CALL_TEXTS.csvNoPhoneColumn);
  const tz = hasHeader ? names.findIndex((n, i) => i !== phone && TIMEZONE_HEADERS.test(n)) : -1;
  const variableColumns = names.map((n, i) => ({ n, i })).filter(({ i }) => i !== phone && i !== tz);
  return {
    layout: {
      has_header: hasHeader,
      separator,
      phone_column: names[phone] ?? `column_${phone + 1}`,
      variable_columns: variableColumns.map((c) => c.n),
      timezone_column: tz >= 0 ? (names[tz] ?? null) : null,
      total_rows: body.length,
    },
    rows: body.map((row) => ({
      line: row.line,
      value: (row.cells[phone] ?? "").trim(),
      variables: Object.fromEntries(variableColumns.map(({ n, i }) => [n, (row.cells[i] ?? "").trim()])),
      timezone: tz >= 0 ? (row.cells[tz] ?? "").trim() || null : null,
    })),
  };
}
