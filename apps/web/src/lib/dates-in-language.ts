import { useTranslation } from "react-i18next";
import { dateFormat } from "./date-format.ts";

/** What a page shows of a date, each written the way one language writes it. */
export interface DatesInLanguage {
  /** An instant (ISO 8601) as date and time in the viewer's time zone: "28.11.2026, 19:34" in German. */
  moment: (iso: string) => string;
  /** An instant's time of day in the viewer's time zone. */
  time: (iso: string) => string;
  /** A billing period `YYYY-MM` as the month's name; periods are UTC months. */
  period: (period: string) => string;
  /** A UTC day `YYYY-MM-DD`, short: "28. Nov." in German. */
  day: (isoDay: string) => string;
}

/**
 * Dates in `language`, the interface language. The one place every page formats dates: a bare
 * toLocaleString() writes the browser's locale instead, which left call logs in en-US while
 * Billing, beside them, spoke German.
 */
export function datesIn(language: string): DatesInLanguage {
  // Each format is made when first used (dateFormat keeps it): a page showing times only never
  // loads the data for month names.
  return {
    moment: (iso) => dateFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso)),
    time: (iso) => dateFormat(language, { timeStyle: "short" }).format(new Date(iso)),
    period: (period) =>
      dateFormat(language, { month: "long", year: "numeric", timeZone: "UTC" }).format(
        new Date(`${period}-01T00:00:00Z`),
      ),
    day: (isoDay) =>
      dateFormat(language, { day: "numeric", month: "short", timeZone: "UTC" }).format(new Date(`${isoDay}T00:00:00Z`)),
  };
}

/** Dates in the interface language in use; a component using it renders again when the language changes. */
export function useDates(): DatesInLanguage {
  const { i18n } = useTranslation();
  return datesIn(i18n.language);
}
