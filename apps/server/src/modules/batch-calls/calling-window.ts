import type { CallingWindow } from "@parley/contract";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";

/**
 * The zones a country's numbers may ring in, east to west. A number does not say where in a
 * country that spans several zones its owner is, so a contact without its own zone is called only
 * when the window is open in every zone of its country (the eastern and western extremes of the
 * mainland; Hawaii, Alaska and overseas territories are not counted). Countries not listed here
 * have one zone, found from the number by Intl where the country has one canonical zone.
 */
const COUNTRY_ZONES: Record<string, readonly string[]> = {
  US: ["America/New_York", "America/Los_Angeles"],
  CA: ["America/St_Johns", "America/Vancouver"],
  MX: ["America/Cancun", "America/Tijuana"],
  BR: ["America/Noronha", "America/Rio_Branco"],
  AU: ["Australia/Sydney", "Australia/Perth"],
  RU: ["Asia/Kamchatka", "Europe/Kaliningrad"],
  ID: ["Asia/Jayapura", "Asia/Jakarta"],
  AR: ["America/Argentina/Buenos_Aires"],
  CL: ["America/Santiago"],
  CN: ["Asia/Shanghai"],
  IN: ["Asia/Kolkata"],
  GB: ["Europe/London"],
  IE: ["Europe/Dublin"],
  FR: ["Europe/Paris"],
  DE: ["Europe/Berlin"],
  ES: ["Europe/Madrid"],
  PT: ["Europe/Lisbon"],
  IT: ["Europe/Rome"],
  NL: ["Europe/Amsterdam"],
  BE: ["Europe/Brussels"],
  CH: ["Europe/Zurich"],
  AT: ["Europe/Vienna"],
  SE: ["Europe/Stockholm"],
  NO: ["Europe/Oslo"],
  DK: ["Europe/Copenhagen"],
  FI: ["Europe/Helsinki"],
  PL: ["Europe/Warsaw"],
  GR: ["Europe/Athens"],
  TR: ["Europe/Istanbul"],
  IL: ["Asia/Jerusalem"],
  AE: ["Asia/Dubai"],
  SA: ["Asia/Riyadh"],
  EG: ["Africa/Cairo"],
  ZA: ["Africa/Johannesburg"],
  NG: ["Africa/Lagos"],
  KE: ["Africa/Nairobi"],
  JP: ["Asia/Tokyo"],
  KR: ["Asia/Seoul"],
  SG: ["Asia/Singapore"],
  HK: ["Asia/Hong_Kong"],
  PH: ["Asia/Manila"],
  TH: ["Asia/Bangkok"],
  VN: ["Asia/Ho_Chi_Minh"],
  MY: ["Asia/Kuala_Lumpur"],
  PK: ["Asia/Karachi"],
  BD: ["Asia/Dhaka"],
  NZ: ["Pacific/Auckland"],
  CO: ["America/Bogota"],
  PE: ["America/Lima"],
};

/** Where a contact's phone rings: its own zone, else its number's country's zones, else the campaign's. */
export function recipientZones(number: string, own: string | null, fallback: string): readonly string[] {
  if (own) return [own];
  const country = parsePhoneNumberFromString(number)?.country;
  return (country && COUNTRY_ZONES[country]) || [fallback];
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** ISO weekday and minute of the day at `at` in `zone`. */
function localTime(at: Date, zone: string): { day: number; minute: number } {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(zone, format);
  }
  let day = 1;
  let hour = 0;
  let minute = 0;
  for (const part of format.formatToParts(at)) {
    if (part.type === "weekday") day = WEEKDAYS[part.value] ?? 1;
    else if (part.type === "hour") hour = Number(part.value);
    else if (part.type === "minute") minute = Number(part.value);
  }
  return { day, minute: hour * 60 + minute };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The window is open at `at` in every one of `zones`. */
export function isOpen(window: CallingWindow, zones: readonly string[], at: Date): boolean {
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  return zones.every((zone) => {
    const local = localTime(at, zone);
    return window.days.includes(local.day) && local.minute >= start && local.minute < end;
  });
}

const STEP_MS = 15 * 60_000;

/**
 * The first minute from `at` on when the window is open in every zone; null when it never is in
 * the coming eight days (zones too far apart for the hours given).
 */
export function nextOpening(window: CallingWindow, zones: readonly string[], at: Date): Date | null {
  if (isOpen(window, zones, at)) return at;
  const base = Math.floor(at.getTime() / 60_000) * 60_000;
  for (let t = base + STEP_MS; t <= base + 8 * 24 * 3_600_000; t += STEP_MS) {
    if (!isOpen(window, zones, new Date(t))) continue;
    // Opened within the last step: find the minute.
    for (let m = t - STEP_MS + 60_000; m <= t; m += 60_000) {
      if (m > at.getTime() && isOpen(window, zones, new Date(m))) return new Date(m);
    }
    return new Date(t);
  }
  return null;
}
