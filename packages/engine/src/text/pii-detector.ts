import nlp from "compromise";
import { type CountryCode, findPhoneNumbersInText } from "libphonenumber-js";
import { findBirthDates, findCards, findIbans, findNationalIds, findSsns, type Range } from "./pii-patterns.ts";
import { canonicalEmail, type DigitView, digitView, EMAIL, originalRange } from "./pii-spoken.ts";

/**
 * Personal data in what was said: card numbers, IBANs, national ids, e-mail addresses, phone
 * numbers (libphonenumber-js), dates of birth and people's names (compromise). Works on written and
 * spoken forms ("four one one one …", "john at example dot com").
 */

/** What a span holds; the order is the priority when two spans overlap (an IBAN's check is stricter than Luhn). */
export const PII_KINDS = ["iban", "card", "national_id", "email", "phone", "date_of_birth", "name"] as const;
export type PiiKind = (typeof PII_KINDS)[number];

/** One piece of personal data: where it is in the text, what was said, and its value as used. */
export interface PiiSpan {
  kind: PiiKind;
  start: number;
  end: number;
  text: string;
  /** Written the one way it is used (a card's digits, an address with @): the same value said twice differently is one. */
  value: string;
}

export interface PiiDetectOptions {
  /** Where a phone number without a country code is taken to be (ISO 3166 code); US when not given. */
  phoneRegion?: string;
}

/** Every span of personal data in `text`, in order, none overlapping (the more specific kind wins). */
export function detectPii(text: string, options: PiiDetectOptions = {}): PiiSpan[] {
  if (!text.trim()) return [];
  const view = digitView(text);
  const fromView = (kind: PiiKind, ranges: Range[]): PiiSpan[] =>
    ranges.map((r) => spanOf(kind, text, originalRange(view, r.start, r.end), r.value));
  const candidates: PiiSpan[] = [
    ...fromView("card", findCards(view.text)),
    ...fromView("iban", findIbans(view.text)),
    ...fromView("national_id", [...findSsns(view.text), ...findNationalIds(view.text)]),
    ...findEmails(text),
    ...findPhones(view, text, options.phoneRegion),
    ...fromView("date_of_birth", findBirthDates(view.text)),
    ...findNames(text),
  ];
  return withoutOverlaps(candidates);
}

function spanOf(kind: PiiKind, text: string, range: { start: number; end: number }, value: string): PiiSpan {
  return { kind, start: range.start, end: range.end, text: text.slice(range.start, range.end), value };
}

function findEmails(text: string): PiiSpan[] {
  const spans: PiiSpan[] = [];
  for (const m of text.matchAll(EMAIL)) {
    const value = canonicalEmail(m[0]);
    const start = m.index ?? 0;
    if (value) spans.push(spanOf("email", text, { start, end: start + m[0].length }, value));
  }
  return spans;
}

function findPhones(view: DigitView, text: string, region = "US"): PiiSpan[] {
  const country = region.toUpperCase() as CountryCode;
  try {
    return findPhoneNumbersInText(view.text, { defaultCountry: country }).map((found) =>
      spanOf("phone", text, originalRange(view, found.startsAt, found.endsAt), found.number.number),
    );
  } catch {
    // An unknown region: numbers with a country code are still found.
    return findPhoneNumbersInText(view.text).map((found) =>
      spanOf("phone", text, originalRange(view, found.startsAt, found.endsAt), found.number.number),
    );
  }
}

/** People's names as compromise tags them; a placeholder ([NAME_1]) is never one. */
function findNames(text: string): PiiSpan[] {
  const people = nlp(text).people().json({ offset: true }) as { text: string; offset: { start: number } }[];
  const spans: PiiSpan[] = [];
  for (const person of people) {
    const name = person.text.replace(/[^\p{L}]+$/u, "").replace(/^[^\p{L}]+/u, "");
    if (name.length < 2 || /[[\]]/.test(person.text)) continue;
    const start = text.indexOf(name, person.offset.start);
    if (start >= 0) spans.push(spanOf("name", text, { start, end: start + name.length }, name));
  }
  return spans;
}

function withoutOverlaps(candidates: PiiSpan[]): PiiSpan[] {
  const kept: PiiSpan[] = [];
  const rank = (s: PiiSpan) => PII_KINDS.indexOf(s.kind);
  const ordered = [...candidates].sort((a, b) => rank(a) - rank(b) || b.end - b.start - (a.end - a.start));
  for (const span of ordered) {
    if (span.end <= span.start) continue;
    if (kept.some((k) => span.start < k.end && k.start < span.end)) continue;
    kept.push(span);
  }
  return kept.sort((a, b) => a.start - b.start);
}
