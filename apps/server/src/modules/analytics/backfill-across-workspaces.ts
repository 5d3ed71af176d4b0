import { inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import { rollEndedCall } from "./roll-ended-call.ts";
import { analyticsBackfill } from "./schema.ts";

export const BACKFILL_QUEUE = "analytics.backfill";
/** Calls rolled per slice: the job hands the runner back between slices, so a big backlog never hogs it. */
const SLICE = 200;

/**
 * The calls that ended before analytics existed (queued by migration 0038, every workspace's) are
 * rolled up by one job, a slice at a time, through the code a call that ends now goes through. It
 * reads the queue across workspaces on purpose: it acts for none of them, and each call is read
 * with its own workspace as the tenant.
 */
export function registerBackfill(ctx: AppContext, jobs: JobRunner, log: FastifyBaseLogger): void {
  jobs.register(BACKFILL_QUEUE, async () => {
    const rows = await ctx.db.select().from(analyticsBackfill).limit(SLICE);
    for (const row of rows) {
      try {
        await rollEndedCall(ctx, row.workspaceId, row.callId);
      } catch (err) {
        log.warn({ err, workspaceId: row.workspaceId, callId: row.callId }, "could not add a past call to analytics");
        throw err;
      }
    }
    if (rows.length > 0)
      await ctx.db.delete(analyticsBackfill).where(
        inArray(
          analyticsBackfill.callId,
          rows.map((r) => r.callId),
        ),
      );
    if (rows.length === SLICE) return { again: new Date() };
    if (rows.length > 0) log.info({ calls: rows.length }, "analytics backfill finished");
  });
}

/**
 * Ended calls queued for the rollup by a process that stopped before writing them (roll-ended-call.ts)
 * are left in analytics_backfill: at start, the backfill job is queued to roll them.
 */
export async function resumeBackfill(ctx: AppContext, jobs: JobRunner): Promise<void> {
  const [left] = await ctx.db.select({ callId: analyticsBackfill.callId }).from(analyticsBackfill).limit(1);
  if (left) await jobs.enqueue(ctx.db, BACKFILL_QUEUE, {});
}
