/** Languages a clone can be tagged with: the interface languages first, then other common ones. */
export const CLONE_LANGUAGES = [
  "en",
  "ar",
  "es",
  "fr",
  "de",
  "hi",
  "pt",
  "it",
  "nl",
  "pl",
  "ru",
  "tr",
  "uk",
  "sv",
  "ja",
  "ko",
  "zh",
  "id",
  "vi",
] as const;

/** A language code's name in the interface language ("fr" → "French", "francés", …); the code if unknown. */
export function languageName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: "language", fallback: "code" }).of(code) ?? code;
  } catch {
    return code;
  }
}
