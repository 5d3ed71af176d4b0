import type { AnalyticsBucket } from "@parley/contract";

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first day of the bucket `day` (YYYY-MM-DD) falls in: itself, its ISO week's Monday, its month's 1st. */
export function bucketStart(day: string, bucket: Exclude<AnalyticsBucket, "total">): string {
  if (bucket === "day") return day;
  if (bucket === "month") return `${day.slice(0, 7)}-01`;
  const ms = Date.parse(`${day}T00:00:00Z`);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  return dayOf(ms - weekday * DAY_MS);
}

/** Every bucket's first day from the one holding `from` to the one holding `to`. */
export function bucketsBetween(from: string, to: string, bucket: Exclude<AnalyticsBucket, "total">): string[] {
  const out: string[] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`); ms += DAY_MS) {
    const start = bucketStart(dayOf(ms), bucket);
    if (out.at(-1) !== start) out.push(start);
  }
  return out;
}
