import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { scoped } from "../../lib/tenant-scope.ts";
import { countedMinutes, monthStartOf } from "./counted-calls-across-workspaces.ts";
import { reservedSeconds } from "./minute-grants-across-workspaces.ts";
import { minuteGrants } from "./schema.ts";

/** A grant outlives its call's limit by this much before a dead process's grant stops counting. */
const GRANT_SLACK_MS = 2 * 60_000;

/**
 * The shortest call worth starting: with less left, a call is refused at its start (and a caller who
 * joins anyway gets no grant) instead of being cut off as it begins and billed for it.
 */
export const MIN_CALL_SECONDS = 10;

export interface PlanScope {
  ownerId: string;
  /** Every workspace the owner owns: the allowance spans them. */
  workspaceIds: string[];
  minutesPerMonth: number;
}

/** Minutes of the plan's month already spoken for: ended calls' minutes plus running calls' grants. */
export async function minutesCommitted(db: Executor, plan: PlanScope, now: Date): Promise<number> {
  const [ended, reserved] = await Promise.all([
    countedMinutes(db, { workspaceIds: plan.workspaceIds, from: monthStartOf(now) }),
    reservedSeconds(db, plan.ownerId, now),
  ]);
  return ended + reserved / 60;
}

/**
 * Sets aside up to `wantSeconds` of what is left of the plan's month for one call and returns how
 * many seconds it got: 0 when less than a useful call (MIN_CALL_SECONDS, or the call's whole want if
 * shorter) is left. Whole seconds, rounded down: a grant never exceeds what is left. One lock per plan owner orders the grants of every
 * process, so two calls starting together share what is left instead of both taking it.
 */
export async function grantSeconds(
  db: Executor,
  plan: PlanScope,
  call: { callId: string; workspaceId: string; wantSeconds: number },
  now: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`minutes:${plan.ownerId}`}))`);
    const leftSeconds = Math.floor((plan.minutesPerMonth - (await minutesCommitted(tx, plan, now))) * 60);
    const seconds = Math.min(call.wantSeconds, leftSeconds);
    if (seconds < Math.min(MIN_CALL_SECONDS, call.wantSeconds) || seconds <= 0) return 0;
    await tx
      .insert(minuteGrants)
      .values(
        scoped(minuteGrants, { workspaceId: call.workspaceId }).values({
          callId: call.callId,
          ownerId: plan.ownerId,
          seconds,
          expiresAt: new Date(now.getTime() + seconds * 1000 + GRANT_SLACK_MS),
        }),
      )
      .onConflictDoUpdate({ target: minuteGrants.callId, set: { seconds } });
    return seconds;
  });
}
