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
  const moment = dateFormat(language, { dateStyle: "medium", timeStyle: "short" });
  const clock = dateFormat(language, { timeStyle: "short" });
  const month = dateFormat(language, { month: "long", year: "numeric", timeZone: "UTC" });
  const day = dateFormat(language, { day: "numeric", month: "short", timeZone: "UTC" });
  return {
    moment: (iso) => moment.format(new Date(iso)),
    time: (iso) => clock.format(new Date(iso)),
    period: (period) => month.format(new Date(`${period}-01T00:00:00Z`)),
    day: (isoDay) => day.format(new Date(`${isoDay}T00:00:00Z`)),
  };
}

/** Dates in the interface language in use; a component using it renders again when the language changes. */
export function useDates(): DatesInLanguage {
  const { i18n } = useTranslation();
  return datesIn(i18n.language);
}
