/** PCI redaction: payment card numbers never reach transcripts or logs in clear. */

export const REDACTED_CARD = "[REDACTED CARD]";

/** 13–19 digits, optionally grouped with single spaces or dashes. */
const CANDIDATE = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g;

/** True when the digits pass the Luhn checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Replaces every Luhn-valid card number (13–19 digits, spaces or dashes allowed) with "[REDACTED CARD]". */
export function redactCardNumbers(text: string): string {
  return text.replace(CANDIDATE, (match) => {
    const digits = match.replace(/[ -]/g, "");
    return digits.length >= 13 && digits.length <= 19 && luhnValid(digits) ? REDACTED_CARD : match;
  });
}
