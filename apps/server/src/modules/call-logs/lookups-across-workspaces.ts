import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import type { CallRecord } from "../../lib/call-runtime.ts";
import { callLogs } from "./schema.ts";
import { recordColumns } from "./service.ts";

/**
 * Call logs found by something other than a tenant: a carrier's status webhook names only its own
 * call id, and a plan's monthly minutes span every workspace its owner runs.
 */

/** Minutes of calls the given workspaces logged since `since` (a plan's monthly allowance spans them). */
export async function minutesUsedSince(db: Executor, workspaceIds: string[], since: Date): Promise<number> {
  if (workspaceIds.length === 0) return 0;
  const [row] = await db
    .select({ seconds: sql<string>`coalesce(sum(${callLogs.durationSeconds}), 0)` })
    .from(callLogs)
    .where(and(inArray(callLogs.workspaceId, workspaceIds), gte(callLogs.startedAt, since)));
  return Number(row?.seconds ?? 0) / 60;
}

/** A call by its carrier's id, across workspaces (status webhooks carry no user); ids are unique per carrier. */
export async function findCallByCarrierId(
  db: Executor,
  provider: string,
  providerCallId: string,
): Promise<CallRecord | null> {
  const [row] = await db
    .select(recordColumns)
    .from(callLogs)
    .where(and(eq(callLogs.provider, provider), eq(callLogs.providerCallId, providerCallId)))
    .limit(1);
  return row ?? null;
}
