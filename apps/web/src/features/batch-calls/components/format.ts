/** A date and time in the interface language, in a given time zone (the campaign's) or the browser's. */
export function formatWhen(iso: string, locale: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  try {
    return date.toLocaleString(locale, {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone,
      timeZoneName: timeZone ? "short" : undefined,
    });
  } catch {
    return date.toLocaleString(locale);
  }
}

/** A share of a total as a whole percentage (0 when there is nothing). */
export const percent = (part: number, total: number) => (total > 0 ? Math.round((part / total) * 100) : 0);
