import { and, count, desc, eq, gte, inArray, lt, notExists, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { Executor } from "../../db/client.ts";
import { answeredMeterRow, METER_CALL_COMPONENT } from "../analytics/call-measures.ts";
import { ENDED_CALLS, endedCallsSubquery } from "../call-logs/ended-calls-across-workspaces.ts";
import { usageRecords } from "./schema.ts";

/**
 * What Parley counts as a call and as used minutes — the one definition behind every figure: Home's
 * cards, /billing (totals, days, assistants, months), the plan card, the monthly allowance and
 * analytics. The rule itself is analytics/call-measures.ts; this file applies it across the plan's
 * workspaces.
 *
 * - A call counts once its caller connected: the call went in progress (media flowed) and ended with
 *   a duration. Attempts that never connected — refused by a limit, nobody joined the room, the
 *   session could not start, busy, no answer, dial failures — stay in call logs (with their reason)
 *   but are neither counted nor billed, as Vapi and Retell bill only connected calls. The call-log
 *   service closes such an attempt with 0 s and no cost (`neverConnected`).
 * - Its minutes are its connected seconds, start of media to hang-up, not rounded up.
 * - A call counts in the calendar month (UTC) and on the UTC day it started.
 * - Once metered, a call is counted from its meter row (`usage_records`, kept when the log is deleted,
 *   like the statement); until then (the metering job has not run yet, or a call closed by a crash has
 *   nothing to meter) from its log. So a call counts the moment it ends, exactly once, and deleting
 *   its log gives no minutes back.
 * - Calls still running are not counted here: Home shows them as active calls, and the allowance sets
 *   their minutes aside separately (minute-grants.ts).
 */

/** What to count: calls of these workspaces that started on UTC days [from, to) (YYYY-MM-DD). */
export interface CountWindow {
  workspaceIds: string[];
  from: string;
  /** Exclusive; none: up to now. */
  to?: string;
}

/** The first UTC day of `now`'s month, YYYY-MM-DD: a plan's month, and Home's, start there. */
export const monthStartOf = (now: Date) => `${now.toISOString().slice(0, 7)}-01`;

const midnight = (day: string) => new Date(`${day}T00:00:00Z`);
/** A counted call's meter row: each metered call has exactly one transcriber row. */
const meterCallRow = answeredMeterRow(usageRecords);

/** One row per counted call: its id, assistant, UTC day and minutes. */
function countedCallRows(db: Executor, window: CountWindow) {
  const metered = db
    .select({
      callId: usageRecords.callId,
      agentId: usageRecords.agentId,
      agentName: usageRecords.agentName,
      day: sql<string>`${usageRecords.day}::text`.as("day"),
      minutes: sql<number>`${usageRecords.callMinutes}`.as("minutes"),
    })
    .from(usageRecords)
    .where(
      and(
        inArray(usageRecords.workspaceId, window.workspaceIds),
        meterCallRow,
        gte(usageRecords.day, window.from),
        window.to ? lt(usageRecords.day, window.to) : undefined,
      ),
    );
  const ended = endedCallsSubquery(db, {
    workspaceIds: window.workspaceIds,
    from: midnight(window.from),
    to: window.to ? midnight(window.to) : undefined,
  });
  const notYetMetered = db
    .select({
      callId: ended.callId,
      agentId: ended.agentId,
      agentName: ended.agentName,
      day: ended.day,
      minutes: ended.minutes,
    })
    .from(ended)
    .where(
      notExists(
        db
          .select({ one: sql`1` })
          .from(usageRecords)
          // Qualified by hand: drizzle names a subquery's column bare, which the inner table would capture.
          .where(
            and(
              sql`${usageRecords.callId} = ${sql.identifier(ENDED_CALLS)}.${sql.identifier("call_id")}`,
              eq(usageRecords.component, METER_CALL_COMPONENT),
            ),
          ),
      ),
    );
  return unionAll(metered, notYetMetered).as("counted_calls");
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** How many calls counted in the window, and their minutes. */
export async function countedTotals(db: Executor, window: CountWindow): Promise<{ calls: number; minutes: number }> {
  if (window.workspaceIds.length === 0) return { calls: 0, minutes: 0 };
  const counted = countedCallRows(db, window);
  const [row] = await db
    .select({ calls: count(), minutes: sql<string>`coalesce(sum(${counted.minutes}), 0)` })
    .from(counted);
  return { calls: Number(row?.calls ?? 0), minutes: round(Number(row?.minutes ?? 0)) };
}

/** Used minutes in the window (a plan's month spans every workspace its owner owns). */
export async function countedMinutes(db: Executor, window: CountWindow): Promise<number> {
  return (await countedTotals(db, window)).minutes;
}

/** Counted calls and minutes per key (a UTC day, a month, an assistant). */
export interface CountedGroup {
  key: string;
  /** The assistant's latest name, for groups by assistant. */
  name: string;
  calls: number;
  minutes: number;
}

/** Counted calls and minutes per UTC day, per month (YYYY-MM) or per assistant. */
export async function countedBy(
  db: Executor,
  window: CountWindow,
  by: "day" | "month" | "assistant",
): Promise<CountedGroup[]> {
  if (window.workspaceIds.length === 0) return [];
  const counted = countedCallRows(db, window);
  const key =
    by === "day"
      ? sql<string>`${counted.day}`
      : by === "month"
        ? sql<string>`substr(${counted.day}, 1, 7)`
        : sql<string>`coalesce(${counted.agentId}::text, '')`;
  const rows = await db
    .select({
      key,
      // A renamed assistant's calls stay together under its latest name.
      name: sql<string>`max(${counted.agentName})`,
      calls: count(),
      minutes: sql<string>`coalesce(sum(${counted.minutes}), 0)`,
    })
    .from(counted)
    .groupBy(key)
    .orderBy(desc(key));
  return rows.map((r) => ({ key: r.key, name: r.name, calls: Number(r.calls), minutes: round(Number(r.minutes)) }));
}
