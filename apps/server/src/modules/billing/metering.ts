import { needsPostCallAnalysis } from "@parley/contract";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { enqueueJob, type JobRunner } from "../../jobs/runner.ts";
import { scoped } from "../../lib/tenant-scope.ts";
import { followCallEnds } from "../call-logs/call-end-follow-ups.ts";
import { type CallUsage, findCallUsage } from "../call-logs/queries.ts";
import { releaseGrant } from "./minute-grants-across-workspaces.ts";
import { usageRecords } from "./schema.ts";

export const METER_QUEUE = "billing.meter-call";

const MeterPayload = z.object({ workspaceId: z.uuid(), callId: z.uuid() });

/**
 * Every call that ends is metered: its grant of minutes is freed (its real minutes are in its log
 * now) and its usage rows are written, both in the call's follow-up right after its log is written
 * (a job enqueued there would be lost to a stopping process just the same, and cost a claim, a read
 * of the whole log and an update more per call). A write that fails is left to a job, which retries
 * it. A call with post-call analysis is metered by a job once the analysis is final
 * (`enqueueCallMetering`, called by the analysis job), since the analysis's model tokens are part of
 * its cost.
 */
export function meterEndedCalls(ctx: AppContext, jobs: JobRunner, log: FastifyBaseLogger): () => void {
  jobs.register(METER_QUEUE, (payload) => {
    const { workspaceId, callId } = MeterPayload.parse(payload);
    return meterCall(ctx.db, workspaceId, callId);
  });
  return followCallEnds(ctx, {
    async run({ workspaceId, callId }, assistant) {
      await releaseGrant(ctx.db, callId);
      if (needsPostCallAnalysis(assistant)) return;
      try {
        await meterCall(ctx.db, workspaceId, callId);
      } catch (err) {
        log.warn({ err, workspaceId, callId }, "could not write an ended call's usage: a job will retry it");
        await enqueueCallMetering(ctx, workspaceId, callId);
      }
    },
    onError(err, { workspaceId, callId }) {
      log.error({ err, workspaceId, callId }, "could not free an ended call's minutes or meter its usage");
    },
  });
}

/** Queues the job that writes a finished call's usage rows. */
export async function enqueueCallMetering(ctx: AppContext, workspaceId: string, callId: string): Promise<void> {
  await enqueueJob(ctx.db, METER_QUEUE, { workspaceId, callId });
}

/** Writes the usage rows of a finished call; a log deleted meanwhile leaves nothing to bill. */
async function meterCall(db: Executor, workspaceId: string, callId: string): Promise<void> {
  const call = await findCallUsage(db, { workspaceId }, callId);
  if (call) await recordUsage(db, workspaceId, call);
}

/** Writes a finished call's usage lines as rows; writing them again changes nothing. */
export async function recordUsage(db: Executor, workspaceId: string, call: CallUsage): Promise<void> {
  const lines = call.cost_breakdown?.usage ?? [];
  if (lines.length === 0) return;
  const day = call.started_at.slice(0, 10);
  const callMinutes = call.duration_seconds / 60;
  await db
    .insert(usageRecords)
    .values(
      lines.map((line) =>
        scoped(usageRecords, { workspaceId }).values({
          callId: call.id,
          component: line.component,
          agentId: call.agent_id,
          agentName: call.agent_name,
          channel: call.channel,
          day,
          callMinutes,
          provider: line.provider,
          model: line.model,
          unit: line.unit,
          quantity: line.quantity,
          unitPrice: line.unit_price,
          cost: line.cost,
        }),
      ),
    )
    .onConflictDoNothing();
}
