/** Phrase matching for end-call phrases and voicemail greetings, tolerant of case and punctuation. */

/** Lower-cases and reduces text to words separated by single spaces. */
export function normalizeWords(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’']/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** True when `text` contains `phrase` as whole words. */
export function containsPhrase(text: string, phrase: string): boolean {
  const p = normalizeWords(phrase);
  return p.length > 0 && ` ${normalizeWords(text)} `.includes(` ${p} `);
}

/** The first of `phrases` that `text` contains, if any. */
export function findPhrase(text: string, phrases: readonly string[]): string | undefined {
  return phrases.find((phrase) => containsPhrase(text, phrase));
}

/** What answering machines and carrier voicemail say in their greetings. */
export const VOICEMAIL_PHRASES = [
  "leave a message",
  "leave me a message",
  "leave your message",
  "leave your name",
  "record your message",
  "not available",
  "unavailable",
  "after the tone",
  "after the beep",
  "at the tone",
  "voicemail",
  "voice mail",
  "mailbox",
  "cant take your call",
  "cannot take your call",
  "cant come to the phone",
  "get back to you",
  "return your call",
];
