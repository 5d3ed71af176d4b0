import { inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { scoped } from "../../lib/tenant-scope.ts";
import { followCallEnds } from "../call-logs/call-end-follow-ups.ts";
import { getCallLog, getCallLogs } from "../call-logs/queries.ts";
import { isEnded } from "./call-measures.ts";
import { rollCall, rollCalls } from "./rollup-writer.ts";
import { analyticsBackfill } from "./schema.ts";

/**
 * Brings an ended call into the rollup as its log reads now: when it ends, when its post-call
 * analysis is saved (call-analysis/analysis-job.ts calls this), and for calls from before analytics
 * (the backfill). A log deleted meanwhile, or still open, leaves nothing to do.
 */
export async function rollEndedCall(ctx: AppContext, workspaceId: string, callId: string): Promise<void> {
  const tenant = { workspaceId };
  const call = await getCallLog(ctx.db, tenant, callId).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  });
  if (!call || !isEnded(call)) return;
  await rollCall(ctx.db, tenant, call);
}

/**
 * How long an ended call waits to be rolled up with the calls that end around it. Analytics reads
 * hours and days; a burst of hang-ups is one transaction a second later instead of one per call
 * inside the burst, while the server is busiest.
 */
const ROLLUP_DELAY_MS = 1_000;

/**
 * Ended calls waiting for their rollup. Each is first written to analytics_backfill (one statement):
 * should the process stop before the batch is written, the backfill job rolls it at the next start.
 */
class EndedCallRollups {
  private readonly waiting = new Map<string, Set<string>>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {}

  async add(workspaceId: string, callId: string): Promise<void> {
    const tenant = { workspaceId };
    await this.ctx.db
      .insert(analyticsBackfill)
      .values(scoped(analyticsBackfill, tenant).values({ callId }))
      .onConflictDoNothing();
    const calls = this.waiting.get(workspaceId) ?? new Set<string>();
    calls.add(callId);
    this.waiting.set(workspaceId, calls);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, ROLLUP_DELAY_MS);
  }

  /** Writes every waiting call's rollup, a workspace's calls in one transaction. */
  flush(): Promise<void> {
    const batches = [...this.waiting];
    this.waiting.clear();
    this.flushing = this.flushing.then(async () => {
      for (const [workspaceId, ids] of batches) {
        try {
          await this.roll(workspaceId, [...ids]);
        } catch (err) {
          // They stay in analytics_backfill: the backfill job rolls them at the next start.
          this.log.error({ err, workspaceId, calls: ids.size }, "could not add ended calls to analytics");
        }
      }
    });
    return this.flushing;
  }

  private async roll(workspaceId: string, ids: string[]): Promise<void> {
    const tenant = { workspaceId };
    // A log deleted meanwhile is not found; one still open (it cannot be, once ended) is left out.
    const logs = await getCallLogs(this.ctx.db, tenant, ids);
    await rollCalls(this.ctx.db, tenant, logs.filter(isEnded));
    await this.ctx.db
      .delete(analyticsBackfill)
      .where(scoped(analyticsBackfill, tenant).where(inArray(analyticsBackfill.callId, ids)));
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }
}

/**
 * Rolls up every call that ends, a moment later with the calls that end around it; returns the stop
 * function, which writes the calls still waiting.
 */
export function rollUpEndedCalls(ctx: AppContext, log: FastifyBaseLogger): () => Promise<void> {
  const rollups = new EndedCallRollups(ctx, log);
  const unfollow = followCallEnds(ctx, {
    run: ({ workspaceId, callId }) => rollups.add(workspaceId, callId),
    onError(err, { workspaceId, callId }) {
      log.error({ err, workspaceId, callId }, "could not queue an ended call for analytics");
    },
  });
  return async () => {
    unfollow();
    await rollups.stop();
  };
}
