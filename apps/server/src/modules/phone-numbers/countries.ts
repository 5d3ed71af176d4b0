import type { Country } from "@parley/contract";
import { getCountries, getCountryCallingCode } from "libphonenumber-js/max";

const FALLBACK_LOCALE = "en";

/** The locale to label countries in: the requested one when the runtime knows it, else English. */
function supportedLocale(locale: string | undefined): string {
  if (!locale) return FALLBACK_LOCALE;
  try {
    return Intl.DisplayNames.supportedLocalesOf([locale])[0] ?? FALLBACK_LOCALE;
  } catch {
    // A malformed tag ("en_US!", "x") is a RangeError, not a reason to fail the list.
    return FALLBACK_LOCALE;
  }
}

const cache = new Map<string, Country[]>();

/**
 * Every region libphonenumber-js has dialing metadata for (about 245), labelled in the locale by
 * Intl.DisplayNames and sorted the way that locale sorts. The list only changes with the library,
 * so each locale's is built once.
 */
export function countryList(requested?: string): Country[] {
  const locale = supportedLocale(requested);
  const cached = cache.get(locale);
  if (cached) return cached;
  const names = new Intl.DisplayNames([locale], { type: "region", fallback: "code" });
  const collator = new Intl.Collator(locale);
  const countries = getCountries()
    .map((code) => ({ code, label: names.of(code) ?? code, dialing_prefix: `+${getCountryCallingCode(code)}` }))
    .sort((a, b) => collator.compare(a.label, b.label));
  cache.set(locale, countries);
  return countries;
}
