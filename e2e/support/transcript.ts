import type { Locator } from "playwright-core";

/** Each transcript line's words, without the speaker's name shown (or read out) beside them. */
export function lineTexts(lines: Locator): Promise<string[]> {
  return lines.evaluateAll((elements) =>
    elements.map((element) => {
      // The words are the line's innermost last text.
      let node = element.lastChild;
      while (node?.nodeType === Node.ELEMENT_NODE) node = node.lastChild;
      return node?.textContent ?? "";
    }),
  );
}

/**
 * Whether a line is the start of one of the scripted replies: the transcript keeps what the caller
 * heard, and the looping test microphone may barge in mid-reply ("We open").
 */
export const startsOneOf = (replies: readonly string[]) => (line: string) =>
  line.trim() !== "" && replies.some((reply) => reply.startsWith(line.trim()));
