import { E164 } from "@parley/contract";
import { z } from "zod";

/**
 * What the dialogs check before sending, so an obvious typo is said beside the field. The server
 * has the last word (it parses the number for its country with libphonenumber-js and answers 422
 * "Invalid phone number format…"); these rules only refuse what can never be a number.
 */

/** Spaces, dots, dashes and brackets people type between digit groups. */
const SEPARATORS = /[\s().-]/g;

/** The number without separators, e.g. "+1 (415) 555-0123" → "+14155550123". */
export const compactNumber = (typed: string) => typed.trim().replace(SEPARATORS, "");

/** Whether the typed text is digits (an optional leading +) of a length a phone number can have: E.164 allows 15. */
export function looksLikePhoneNumber(typed: string): boolean {
  return /^\+?[0-9]{4,15}$/.test(compactNumber(typed));
}

export const hasCountryCode = (typed: string) => compactNumber(typed).startsWith("+");

/** A phone number as typed in a form; `messages` are the interface language's sentences. */
export const phoneNumberField = (messages: { required: string; invalid: string }) =>
  z
    .string()
    .trim()
    .min(1, messages.required)
    // An empty field is said once, as "required".
    .refine((value) => value === "" || looksLikePhoneNumber(value), messages.invalid);

/**
 * Spec §5: a messaging number must be in E.164 format (+, country code, up to 15 digits); separators
 * are forgiven and removed, anything else is refused with the contract's text.
 */
export function e164Problem(typed: string): string | null {
  const parsed = E164.safeParse(compactNumber(typed));
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? "Invalid");
}

/** "" in a select means "none": the API takes null. */
export const orNull = (value: string | null | undefined) => (value ? value : null);

/** A comma-, space- or line-separated list (carrier addresses), without empty entries. */
export const listOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);

/** The regional-indicator flag of an ISO 3166-1 alpha-2 code ("GB" → 🇬🇧); "" for anything else. */
export function flagOf(code: string | null | undefined): string {
  if (!code || !/^[A-Za-z]{2}$/.test(code)) return "";
  const base = 0x1f1e6 - "A".charCodeAt(0);
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => base + c.charCodeAt(0)));
}
