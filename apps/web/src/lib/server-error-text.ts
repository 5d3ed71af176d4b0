import { ApiError } from "./api-error.ts";

/** A sentence's words for comparing: case, spacing and end punctuation aside. */
const sentenceKey = (sentence: string) =>
  sentence
    .toLowerCase()
    .replace(/[.!?…]+$/, "")
    .replace(/\s+/g, " ")
    .trim();

/**
 * The texts as one message with each sentence once: a 422's field sentences often repeat its
 * detail, and two fields can carry the same complaint.
 */
export function onceEach(texts: readonly string[]): string {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const text of texts) {
    for (const sentence of text.trim().split(/(?<=[.!?…])\s+/)) {
      const key = sentenceKey(sentence);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      kept.push(sentence.trim());
    }
  }
  return kept.join(" ");
}

/**
 * A request the server refused with its own words (4xx) says just those words, once: "Validation
 * error:", "Request validation failed:" and the like in front only repeat what the status is, and
 * the server's sentence already says what to fix (issue 26). A refusal without words keeps the
 * status text of spec §8, as do no answer, server faults (5xx) and 429 (its own wording).
 */
export function withServerWords(error: ApiError): ApiError {
  if (error.status < 400 || error.status >= 500 || error.status === 429) return error;
  const own = error.fieldErrors.length > 0 ? error.fieldErrors.map((e) => e.message) : [error.detail];
  const text = onceEach(own);
  return text ? new ApiError(error.status, text, error.detail, error.fieldErrors) : error;
}
