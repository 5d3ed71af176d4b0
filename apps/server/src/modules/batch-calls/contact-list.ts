import { BATCH_CALL_TEXTS, type BatchContactInput, type RowProblem } from "@parley/contract";
import { normaliseNumber } from "../phone-numbers/number-format.ts";

/** A contact ready to store: E.164 number, the variables for the prompt, its own time zone if given. */
export interface ContactDraft {
  line: number;
  number: string;
  variables: Record<string, string>;
  timezone: string | null;
}

export interface RawContact {
  line: number;
  value: string;
  variables?: Record<string, string> | undefined;
  timezone?: string | null | undefined;
}

export interface CheckedContacts {
  contacts: ContactDraft[];
  duplicates: RowProblem[];
  invalid: RowProblem[];
}

export const ALREADY_IN_BATCH = "Already in this batch call";

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A request's contacts (strings or objects) as raw rows numbered from 1. */
export function rawFromInputs(inputs: readonly BatchContactInput[]): RawContact[] {
  return inputs.map((input, i) =>
    typeof input === "string"
      ? { line: i + 1, value: input }
      : { line: i + 1, value: input.number, variables: input.variables, timezone: input.timezone ?? null },
  );
}

/**
 * Normalises every row to E.164 (numbers without "+" read in `defaultCountry`), and reports each row
 * it drops with its line: numbers that cannot be phone numbers, bad time zones, and repeats (of an
 * earlier row, or of a number the campaign already has). The first occurrence of a number wins.
 */
export function checkContacts(
  rows: readonly RawContact[],
  defaultCountry: string | null,
  existing: ReadonlySet<string> = new Set(),
): CheckedContacts {
  const firstLine = new Map<string, number>();
  const result: CheckedContacts = { contacts: [], duplicates: [], invalid: [] };
  for (const row of rows) {
    const number = normaliseNumber(row.value, defaultCountry)?.e164;
    if (!number) {
      result.invalid.push({ line: row.line, value: row.value, reason: BATCH_CALL_TEXTS.invalidNumber(row.value) });
      continue;
    }
    const timezone = row.timezone?.trim() || null;
    if (timezone && !isTimeZone(timezone)) {
      result.invalid.push({ line: row.line, value: row.value, reason: BATCH_CALL_TEXTS.invalidTimezone(timezone) });
      continue;
    }
    if (existing.has(number)) {
      result.duplicates.push({ line: row.line, value: number, reason: ALREADY_IN_BATCH });
      continue;
    }
    const earlier = firstLine.get(number);
    if (earlier !== undefined) {
      result.duplicates.push({
        line: row.line,
        value: number,
        reason: BATCH_CALL_TEXTS.duplicateNumber(number, earlier),
      });
      continue;
    }
    firstLine.set(number, row.line);
    result.contacts.push({ line: row.line, number, variables: row.variables ?? {}, timezone });
  }
  return result;
}
