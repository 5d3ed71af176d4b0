/**
 * Spoken forms of personal data, as transcribers write them: digits as words ("four one one one"),
 * and e-mail addresses with "at" and "dot". The detector reads a view of the text where digit words
 * are digits, and maps what it finds back to the words the caller said.
 */

const DIGIT_WORDS: Record<string, string> = {
  zero: "0",
  oh: "0",
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
};
const REPEATS: Record<string, number> = { double: 2, triple: 3 };

/** The text with digit words as digits; `startOf`/`endOf` give each view character's place in the original. */
export interface DigitView {
  text: string;
  startOf: number[];
  endOf: number[];
}

/** "four one one one" → "4 1 1 1", "double five" → "55", "plus four four" → "+4 4"; every other character is kept. */
export function digitView(original: string): DigitView {
  let text = "";
  const startOf: number[] = [];
  const endOf: number[] = [];
  const keep = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      text += original[i];
      startOf.push(i);
      endOf.push(i + 1);
    }
  };
  const words = [...original.matchAll(/[A-Za-z]+/g)];
  let last = 0;
  for (let w = 0; w < words.length; w++) {
    const match = words[w] as RegExpMatchArray & { index: number };
    const word = match[0].toLowerCase();
    const next = words[w + 1];
    const repeat = REPEATS[word];
    const repeated = repeat && next ? DIGIT_WORDS[next[0].toLowerCase()] : undefined;
    // "plus four four …": a country code read out.
    const plus = word === "plus" && next && DIGIT_WORDS[next[0].toLowerCase()] ? "+" : undefined;
    const digit = plus ?? repeated ?? DIGIT_WORDS[word];
    if (digit === undefined) continue;
    // "double five": the repeat word, the space and the digit word become the digits.
    const wordEnd = repeated && next ? (next.index ?? 0) + next[0].length : match.index + match[0].length;
    keep(last, match.index);
    for (let n = 0; n < (repeated ? (repeat ?? 1) : 1); n++) {
      text += digit;
      startOf.push(match.index);
      endOf.push(wordEnd);
    }
    // The country code's "+" runs into its digits, as it is written.
    last = plus && next ? (next.index ?? wordEnd) : wordEnd;
    if (repeated) w += 1;
  }
  keep(last, original.length);
  return { text, startOf, endOf };
}

/** The original range of view characters [from, to). */
export function originalRange(view: DigitView, from: number, to: number): { start: number; end: number } {
  return { start: view.startOf[from] ?? 0, end: view.endOf[to - 1] ?? 0 };
}

const LOCAL_SEP = String.raw`(?:\s+(?:dot|underscore|dash|hyphen)\s+|[._+-])`;
const AT = String.raw`(?:\s*@\s*|\s+at\s+)`;
const DOT = String.raw`(?:\s+dot\s+|\.)`;
/** A written address, or one read out ("john dot smith at example dot com"), or a mix of both. */
export const EMAIL = new RegExp(
  String.raw`(?<![\w@.])[a-z0-9]+(?:${LOCAL_SEP}[a-z0-9]+)*${AT}[a-z0-9-]+(?:${DOT}[a-z0-9-]+)*${DOT}[a-z]{2,24}\b`,
  "gi",
);

/** Endings a spoken address must have, so "look at this dot something" is not taken for one. */
const SPOKEN_TLDS = new Set(
  "com org net edu gov io co uk de fr es it nl be ch at us ca au in br pt info biz me ai app dev eu ie se no dk fi pl mx ar jp cn ru".split(
    " ",
  ),
);

/** The address as it is written ("john@example.com"), or null when a spoken match is not one. */
export function canonicalEmail(match: string): string | null {
  const spoken = /\s(?:at|dot)\s/i.test(match);
  const written = match
    .toLowerCase()
    .replace(/\s+dot\s+/g, ".")
    .replace(/\s+underscore\s+/g, "_")
    .replace(/\s+(?:dash|hyphen)\s+/g, "-")
    .replace(/\s*@\s*|\s+at\s+/g, "@")
    .replace(/\s+/g, "");
  const tld = written.slice(written.lastIndexOf(".") + 1);
  if (spoken && !SPOKEN_TLDS.has(tld)) return null;
  return written;
}
