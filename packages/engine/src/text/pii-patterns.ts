import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import { luhnValid } from "./pci-redaction.ts";

/**
 * The structured identifiers the detector finds by their shape and, where they have one, their
 * check digits: card numbers (Luhn), IBANs (ibantools' mod-97), US social security numbers, UK
 * National Insurance numbers, Spanish DNI/NIE (check letter), French NIR (key), and dates of birth.
 * Each finder returns ranges of the text it is given.
 */

export interface Range {
  start: number;
  end: number;
  /** The value as it is used (digits only, the IBAN's electronic form); the matched text otherwise. */
  value: string;
}

interface DigitGroup {
  digits: string;
  start: number;
  end: number;
}

/** Digits in groups a person or a transcriber writes: "4111 1111-1111 1111", "4, 1, 1, 1". */
const DIGIT_RUN = /\d+(?:[ \t,-]{1,3}\d+)*/g;

function groupsOf(run: string, offset: number): DigitGroup[] {
  return [...run.matchAll(/\d+/g)].map((m) => ({
    digits: m[0],
    start: offset + (m.index ?? 0),
    end: offset + (m.index ?? 0) + m[0].length,
  }));
}

/** Each run of digit groups in the text. */
function digitRuns(text: string): DigitGroup[][] {
  return [...text.matchAll(DIGIT_RUN)].map((m) => groupsOf(m[0], m.index ?? 0));
}

/** Card numbers: 13–19 consecutive digits of a run that pass Luhn, the longest from each start. */
export function findCards(text: string): Range[] {
  const found: Range[] = [];
  for (const groups of digitRuns(text)) {
    let i = 0;
    while (i < groups.length) {
      let best: { j: number; digits: string } | null = null;
      let digits = "";
      for (let j = i; j < groups.length; j++) {
        digits += groups[j]?.digits ?? "";
        if (digits.length > 19) break;
        if (digits.length >= 13 && luhnValid(digits)) best = { j, digits };
      }
      if (!best) {
        i += 1;
        continue;
      }
      found.push({ start: groups[i]?.start ?? 0, end: groups[best.j]?.end ?? 0, value: best.digits });
      i = best.j + 1;
    }
  }
  return found;
}

const SSN_KEYWORD = /social security|\bssn\b|\bsocial\b/i;

/** US social security numbers: 123-45-6789 as written, or nine digits read out after "social security". */
export function findSsns(text: string): Range[] {
  const found: Range[] = [];
  for (const groups of digitRuns(text)) {
    for (let i = 0; i + 2 < groups.length; i++) {
      const [a, b, c] = [groups[i], groups[i + 1], groups[i + 2]];
      if (!a || !b || !c) continue;
      const shaped = a.digits.length === 3 && b.digits.length === 2 && c.digits.length === 4;
      if (shaped && plausibleSsn(a.digits + b.digits + c.digits))
        found.push({ start: a.start, end: c.end, value: a.digits + b.digits + c.digits });
    }
    const first = groups[0];
    if (!first || !SSN_KEYWORD.test(text.slice(Math.max(0, first.start - 40), first.start))) continue;
    const digits = groups.map((g) => g.digits).join("");
    if (digits.length === 9 && plausibleSsn(digits))
      found.push({ start: first.start, end: groups.at(-1)?.end ?? first.end, value: digits });
  }
  return found;
}

function plausibleSsn(d: string): boolean {
  return !/^(000|666|9)/.test(d) && d.slice(3, 5) !== "00" && d.slice(5) !== "0000";
}

const NINO = /\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/gi;
const DNI = /\b(\d{8})-?([A-Z])\b/gi;
const NIE = /\b([XYZ])-?(\d{7})-?([A-Z])\b/gi;
const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";
const NIR = /\b([12]) ?(\d{2}) ?(\d{2}) ?(\d{2}) ?(\d{3}) ?(\d{3}) ?(\d{2})\b/g;

/** National identity numbers other than SSNs: UK NINO, Spanish DNI and NIE, French NIR. */
export function findNationalIds(text: string): Range[] {
  const found: Range[] = [];
  const add = (m: RegExpMatchArray) =>
    found.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, value: m[0].toUpperCase() });
  for (const m of text.matchAll(NINO)) add(m);
  for (const m of text.matchAll(DNI)) {
    if (DNI_LETTERS[Number(m[1]) % 23] === m[2]?.toUpperCase()) add(m);
  }
  for (const m of text.matchAll(NIE)) {
    const number = Number(`${"XYZ".indexOf((m[1] ?? "").toUpperCase())}${m[2]}`);
    if (DNI_LETTERS[number % 23] === m[3]?.toUpperCase()) add(m);
  }
  for (const m of text.matchAll(NIR)) {
    const body = BigInt(m.slice(1, 7).join(""));
    if (97n - (body % 97n) === BigInt(m[7] ?? "-1")) add(m);
  }
  return found;
}

/** Two letters, two digits, then 11–30 letters or digits, single spaces allowed (as read out letter by letter). */
const IBAN_CANDIDATE = /\b[A-Z] ?[A-Z] ?\d ?\d(?: ?[A-Z0-9]){11,30}/gi;

/** IBANs that pass their country's length and mod-97 check, the longest valid prefix of each candidate. */
export function findIbans(text: string): Range[] {
  const found: Range[] = [];
  for (const m of text.matchAll(IBAN_CANDIDATE)) {
    const at = m.index ?? 0;
    const chars = [...m[0]].flatMap((c, i) => (c === " " ? [] : [{ c: c.toUpperCase(), i: at + i }]));
    for (let k = Math.min(chars.length, 34); k >= 15; k--) {
      const iban =
        electronicFormatIBAN(
          chars
            .slice(0, k)
            .map((x) => x.c)
            .join(""),
        ) ?? "";
      if (isValidIBAN(iban)) {
        found.push({ start: chars[0]?.i ?? at, end: (chars[k - 1]?.i ?? at) + 1, value: iban });
        break;
      }
    }
  }
  return found;
}

const MONTH =
  "(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)";
const ORDINAL_WORD =
  "(?:(?:twenty|thirty)[\\s-])?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth";
const DAY = `(?:\\d{1,2}(?:st|nd|rd|th)?|${ORDINAL_WORD})`;
const YEAR_WORD =
  "(?:and|oh|zero|\\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)(?![a-z])";
const YEAR = `(?:\\d{4}|(?:nineteen|twenty|two thousand)(?:[\\s-]+${YEAR_WORD})*)`;
const DATE = new RegExp(
  [
    String.raw`\b\d{4}-\d{2}-\d{2}\b`,
    String.raw`\b\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})\b`,
    `\\b(?:the\\s+)?${DAY}(?:\\s+of)?\\s+${MONTH}\\b(?:,?\\s+${YEAR})?`,
    `\\b${MONTH}\\s+(?:the\\s+)?${DAY}\\b(?:,?\\s+${YEAR})?`,
  ].join("|"),
  "gi",
);
const SPOKEN_YEAR_AT_END = new RegExp(`\\s(?:nineteen|twenty|two thousand)(?:[\\s-]+${YEAR_WORD})*$`, "i");
const BIRTH = /\b(?:born|birth|birthday|dob|d\.o\.b)\b/i;

/**
 * Dates of birth: a date within a few words after "born", "birth", "birthday" or "DOB", or any full
 * date (day, month and year) whose year is at least 13 years back — an appointment is not one.
 */
export function findBirthDates(text: string, thisYear = new Date().getFullYear()): Range[] {
  const found: Range[] = [];
  for (const m of text.matchAll(DATE)) {
    const at = m.index ?? 0;
    const nearBirth = BIRTH.test(text.slice(Math.max(0, at - 40), at));
    const year = yearOf(m[0]);
    const fullPastDate = year === "spoken" || (year !== null && year <= thisYear - 13);
    if (nearBirth || fullPastDate) found.push({ start: at, end: at + m[0].length, value: m[0] });
  }
  return found;
}

/** The date's year: a number, "spoken" for a year in words, or null when it has none. */
function yearOf(date: string): number | "spoken" | null {
  const four = date.match(/\b(\d{4})\b/);
  if (four) return Number(four[1]);
  const numeric = date.match(/^\d{1,2}[/.-]\d{1,2}[/.-](\d{2})$/);
  if (numeric) {
    const yy = Number(numeric[1]);
    return yy > new Date().getFullYear() % 100 ? 1900 + yy : 2000 + yy;
  }
  return SPOKEN_YEAR_AT_END.test(date) ? "spoken" : null;
}
