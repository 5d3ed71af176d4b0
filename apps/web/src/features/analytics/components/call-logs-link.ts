import type { AnalyticsParams } from "../api/analytics-api.ts";

const DAY_MS = 86_400_000;

/** The instant a day (YYYY-MM-DD) starts in a time zone, as ISO 8601 with its offset (Z). */
export function zoneMidnight(day: string, zone: string): string {
  const guess = Date.parse(`${day}T00:00:00Z`);
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).formatToParts(new Date(guess));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  // How far the zone's clock is ahead of UTC at that moment: midnight there is that much earlier.
  const shown = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"));
  return new Date(guess - (shown - guess)).toISOString();
}

/**
 * The call-log list over the same calls: the range's days in the workspace's zone, the assistant, the
 * channel and the campaign (the list has no phone-number filter: the page offers no link then). Its
 * total counts every attempt, as analytics' "attempts" does.
 */
export function callLogsHref(p: AnalyticsParams, zone: string): string {
  const next = new Date(Date.parse(`${p.to}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
  const query = new URLSearchParams({ date_from: zoneMidnight(p.from, zone), date_to: zoneMidnight(next, zone) });
  if (p.assistantId) query.set("agent_id", p.assistantId);
  if (p.channel) query.set("channel", p.channel);
  if (p.campaignId) query.set("batch_call_id", p.campaignId);
  return `/call-logs?${query.toString()}`;
}
