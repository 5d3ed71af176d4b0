import { and, eq, inArray, ne } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { enqueueJob, type JobRunner } from "../../jobs/runner.ts";
import { type JobRow, jobs as jobTable } from "../../jobs/schema.ts";
import { purgeExpired } from "./purge-expired-across-workspaces.ts";

export const RETENTION_QUEUE = "privacy.retention";
/** The daily pass. */
export const RETENTION_EVERY_MS = 86_400_000;
/** While a workspace is in zero-retention the pass comes this often, so a call's content goes soon after it ends. */
export const ZERO_RETENTION_EVERY_MS = 5 * 60_000;

/** The retention jobs queued or running, but `except` (the one asking). */
const pending = (db: Executor, except?: JobRow["id"]) =>
  db
    .select({ id: jobTable.id })
    .from(jobTable)
    .where(
      and(
        eq(jobTable.queue, RETENTION_QUEUE),
        inArray(jobTable.status, ["queued", "running"]),
        except === undefined ? undefined : ne(jobTable.id, except),
      ),
    );

/**
 * The retention pass: one recurring job per database (a process that finds another one queued or
 * running leaves it be), daily, or every few minutes while a workspace is in zero-retention.
 */
export async function scheduleRetention(ctx: AppContext, jobs: JobRunner, log: FastifyBaseLogger) {
  jobs.register(RETENTION_QUEUE, async (_payload, job) => {
    const [other] = await pending(ctx.db, job.id).limit(1);
    // Two processes starting together may each have queued one: the spare finishes for good.
    if (other && other.id < job.id) return;
    const { zeroRetention } = await purgeExpired(ctx, log);
    const every = zeroRetention ? ZERO_RETENTION_EVERY_MS : RETENTION_EVERY_MS;
    return { again: new Date(ctx.now().getTime() + every) };
  });
  const [existing] = await pending(ctx.db).limit(1);
  if (!existing) await enqueueJob(ctx.db, RETENTION_QUEUE, {}, { maxAttempts: 1_000_000 });
}

/** A changed retention applies at once: the queued pass is brought forward to now. */
export async function runRetentionSoon(ctx: AppContext, jobs: JobRunner): Promise<void> {
  await ctx.db
    .update(jobTable)
    .set({ runAt: ctx.now() })
    .where(and(eq(jobTable.queue, RETENTION_QUEUE), eq(jobTable.status, "queued")));
  jobs.wake();
}
