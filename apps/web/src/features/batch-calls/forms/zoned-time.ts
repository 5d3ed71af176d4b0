/**
 * Wall-clock times in a named time zone, for the schedule picker: a `datetime-local` input gives
 * "2026-12-01T09:30" with no zone, and the campaign's zone says which instant that is.
 */

const pad = (n: number) => String(n).padStart(2, "0");

/** The zone's offset from UTC at an instant, in minutes (e.g. 60 for Paris in winter). */
function offsetMinutes(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * "2026-12-01T09:30" in `timeZone` as an ISO instant with the zone's offset
 * ("2026-12-01T09:30:00+01:00"); null for an empty or unreadable value. A time skipped by a
 * daylight-saving change moves forward by the gap, as clocks do.
 */
export function zonedToIso(local: string, timeZone: string): string | null {
  const m = LOCAL.exec(local.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offset at the wall time read as UTC is a first guess; the offset at the guessed instant settles it.
  const instant = wall - offsetMinutes(wall - offsetMinutes(wall, timeZone) * 60_000, timeZone) * 60_000;
  const offset = offsetMinutes(instant, timeZone);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${isoToZoned(new Date(instant).toISOString(), timeZone)}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** An ISO instant as the `datetime-local` value it shows in `timeZone` ("" for none). */
export function isoToZoned(iso: string | null, timeZone: string): string {
  if (!iso) return "";
  const instant = Date.parse(iso);
  if (Number.isNaN(instant)) return "";
  const local = new Date(instant + offsetMinutes(instant, timeZone) * 60_000);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(
    local.getUTCHours(),
  )}:${pad(local.getUTCMinutes())}`;
}

/** The browser's time zone, the schedule picker's first choice. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** Every IANA zone the browser knows (UTC first), for the time zone picker. */
export function timeZones(): string[] {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...known.filter((z) => z !== "UTC")];
}

/** Whether the browser knows a zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
