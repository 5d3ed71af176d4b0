/**
 * Cuts streamed model text into sentences so speech can start before the reply is complete.
 * A full stop ends a sentence only when whitespace follows and it does not close a known
 * abbreviation, an initial or a number ("Dr. Smith", "J. R. R.", "3.5", "No. 4").
 */

const ABBREVIATIONS = new Set([
  "mr",
  "mrs",
  "ms",
  "dr",
  "prof",
  "sr",
  "jr",
  "st",
  "mt",
  "vs",
  "etc",
  "eg",
  "ie",
  "e.g",
  "i.e",
  "a.m",
  "p.m",
  "no",
  "approx",
  "dept",
  "inc",
  "ltd",
  "co",
  "corp",
  "ave",
  "blvd",
  "rd",
  "fig",
  "jan",
  "feb",
  "mar",
  "apr",
  "jun",
  "jul",
  "aug",
  "sep",
  "sept",
  "oct",
  "nov",
  "dec",
  "u.s",
  "u.k",
]);

const CLOSERS = new Set(['"', "'", ")", "]", "”", "’", "»"]);
/** Past this length a sentence is cut at a comma or space, so speech never waits too long. */
const MAX_SENTENCE_CHARS = 220;

export class SentenceSplitter {
  private buffer = "";

  /** Adds streamed text; returns the sentences it completed. */
  push(text: string): string[] {
    this.buffer += text;
    const out: string[] = [];
    for (let end = this.nextBoundary(); end > 0; end = this.nextBoundary()) {
      const sentence = this.buffer.slice(0, end).trim();
      this.buffer = this.buffer.slice(end);
      if (sentence) out.push(sentence);
    }
    return out;
  }

  /** Returns whatever is left (the reply ended). */
  flush(): string[] {
    const rest = this.buffer.trim();
    this.buffer = "";
    return rest ? [rest] : [];
  }

  reset(): void {
    this.buffer = "";
  }

  /** Index just past the first complete sentence, or 0 when none is complete yet. */
  private nextBoundary(): number {
    const b = this.buffer;
    for (let i = 0; i < b.length; i++) {
      const ch = b[i] as string;
      if (ch === "\n" && b.slice(0, i).trim()) return i + 1;
      if (ch !== "." && ch !== "!" && ch !== "?" && ch !== "…") continue;
      let j = i + 1;
      while (j < b.length && (CLOSERS.has(b[j] as string) || (b[j] === "." && ch === "."))) j++;
      if (j >= b.length) return 0; // cannot tell yet what follows
      if (!/\s/.test(b[j] as string)) continue; // "3.5", "e.g", "www.x"
      if (ch === "." && !this.endsSentence(b, i, j)) continue;
      return j;
    }
    return b.length > MAX_SENTENCE_CHARS ? this.softBreak(b) : 0;
  }

  private endsSentence(b: string, dot: number, after: number): boolean {
    const word = /([\p{L}.]+)$/u.exec(b.slice(0, dot))?.[1] ?? "";
    const bare = word.toLowerCase().replace(/^\.+/, "");
    if (ABBREVIATIONS.has(bare)) return false;
    if (/^\p{Lu}$/u.test(word)) return false; // an initial: "J. Smith"
    // "1. First" in a list, or a number before a lower-case continuation.
    const next = /\S/.exec(b.slice(after));
    if (!next) return this.buffer.length > after + 1; // wait for the next word unless text follows
    return !/\p{Ll}/u.test(next[0]);
  }

  private softBreak(b: string): number {
    const window = b.slice(0, MAX_SENTENCE_CHARS);
    const comma = Math.max(window.lastIndexOf(", "), window.lastIndexOf("; "));
    if (comma > 40) return comma + 1;
    const space = window.lastIndexOf(" ");
    return space > 40 ? space + 1 : MAX_SENTENCE_CHARS;
  }
}
