import { isSupportedCountry, parsePhoneNumberFromString } from "libphonenumber-js/max";

export interface NormalisedNumber {
  /** "+14155550123". */
  e164: string;
  /** The number's country when its prefix says (ISO 3166-1 alpha-2), else null. */
  country: string | null;
}

/**
 * A typed number in E.164, or null when it cannot be one. `country` is the region a national
 * number ("020 7183 8750") is read in. The test is "possible" (right length for its country
 * code) rather than "valid": fictional ranges such as +1 555 01xx and UK drama numbers are real
 * on vendors' test accounts and in local doubles, and the vendor itself refuses numbers it
 * cannot reach.
 */
export function normaliseNumber(input: string, country?: string | null): NormalisedNumber | null {
  const region = country && isSupportedCountry(country) ? country : undefined;
  const parsed = parsePhoneNumberFromString(input.trim(), region ? { defaultCountry: region } : undefined);
  if (!parsed?.isPossible()) return null;
  return { e164: parsed.number, country: parsed.country ?? null };
}
