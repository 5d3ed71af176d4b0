import { and, gt, gte, inArray, lt, notInArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { callLogs } from "./schema.ts";

/** The subquery's alias, for a query that must name its columns qualified. */
export const ENDED_CALLS = "ended_calls";

/**
 * The ended, connected calls of several workspaces as a subquery (a plan's month spans every
 * workspace its owner owns): what billing/counted-calls-across-workspaces.ts counts for the calls the
 * meter has not reached. A call connected when it ended with a duration: an attempt that never
 * connected is closed with 0 s (service.ts).
 */
export function endedCallsSubquery(db: Executor, window: { workspaceIds: string[]; from: Date; to?: Date }) {
  return db
    .select({
      callId: sql<string>`${callLogs.id}`.as("call_id"),
      agentId: sql<string | null>`${callLogs.agentId}`.as("agent_id"),
      agentName: sql<string>`${callLogs.agentName}`.as("agent_name"),
      day: sql<string>`to_char(${callLogs.startedAt} at time zone 'UTC', 'YYYY-MM-DD')`.as("day"),
      minutes: sql<number>`${callLogs.durationSeconds} / 60.0`.as("minutes"),
    })
    .from(callLogs)
    .where(
      and(
        inArray(callLogs.workspaceId, window.workspaceIds),
        notInArray(callLogs.status, ["queued", "in_progress"]),
        gt(callLogs.durationSeconds, 0),
        gte(callLogs.startedAt, window.from),
        window.to ? lt(callLogs.startedAt, window.to) : undefined,
      ),
    )
    .as(ENDED_CALLS);
}
