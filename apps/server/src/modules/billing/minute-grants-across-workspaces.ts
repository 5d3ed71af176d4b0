// Minute-grant queries that cross workspaces on purpose. A plan's monthly minutes are shared by
// every workspace its owner owns, so the seconds reserved for running calls are summed by owner,
// not by workspace; and a call's grant is freed by the call's id when the call ends, wherever it ran.

import { and, eq, gt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { minuteGrants } from "./schema.ts";

/** Seconds set aside for the plan's calls still running (on any process). */
export async function reservedSeconds(db: Executor, ownerId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ seconds: sql<string>`coalesce(sum(${minuteGrants.seconds}), 0)` })
    .from(minuteGrants)
    .where(and(eq(minuteGrants.ownerId, ownerId), gt(minuteGrants.expiresAt, now)));
  return Number(row?.seconds ?? 0);
}

/** The call has ended: its real minutes are in its log now, so its grant is freed. */
export async function releaseGrant(db: Executor, callId: string): Promise<void> {
  await db.delete(minuteGrants).where(eq(minuteGrants.callId, callId));
}
