import type { Locator } from "playwright-core";
import { expect } from "vitest";

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

/**
 * Waits for `log` to show the assistant and the caller, then for an assistant line that starts a
 * scripted reply (`startsAReply`: the line keeps only what the caller heard, and the looping test
 * microphone may barge in mid-reply on a loaded machine), and for `player` to have played more than
 * a second of the assistant's audio in the page.
 */
export async function expectHeardReply(
  log: Locator,
  startsAReply: (line: string) => boolean,
  player: Locator,
  timeouts: { assistant?: number; user: number },
): Promise<void> {
  await log.locator('[data-role="assistant"]').first().waitFor({ timeout: timeouts.assistant });
  await log.locator('[data-role="user"]').first().waitFor({ timeout: timeouts.user });
  await expect
    .poll(async () => (await lineTexts(log.locator('[data-role="assistant"]'))).some(startsAReply), {
      timeout: 60_000,
    })
    .toBe(true);
  await expect
    .poll(async () => Number(await player.getAttribute("data-played-ms")), { timeout: 20_000 })
    .toBeGreaterThan(1000);
}
