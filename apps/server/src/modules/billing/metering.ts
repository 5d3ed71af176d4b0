import type { CallLog } from "@parley/contract";
import { needsPostCallAnalysis } from "@parley/contract";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { enqueueJob, type JobRunner } from "../../jobs/runner.ts";
import { AppError } from "../../lib/app-error.ts";
import { scoped } from "../../lib/tenant-scope.ts";
import { followCallEnds } from "../call-logs/call-end-follow-ups.ts";
import { getCallLog } from "../call-logs/queries.ts";
import { releaseGrant } from "./minute-grants-across-workspaces.ts";
import { usageRecords } from "./schema.ts";

export const METER_QUEUE = "billing.meter-call";

const MeterPayload = z.object({ workspaceId: z.uuid(), callId: z.uuid() });

/**
 * Every call that ends is metered: its grant of minutes is freed at once (its real minutes are in its
 * log now) and a job writes its usage rows, so a restart between the two loses nothing. A call with
 * post-call analysis is metered once the analysis is final (`enqueueCallMetering`, called by the
 * analysis job), since the analysis's model tokens are part of its cost.
 */
export function meterEndedCalls(ctx: AppContext, jobs: JobRunner, log: FastifyBaseLogger): () => void {
  jobs.register(METER_QUEUE, (payload) => meterCallJob(ctx.db, payload));
  return followCallEnds(ctx, {
    async run({ workspaceId, callId }, assistant) {
      await releaseGrant(ctx.db, callId);
      if (needsPostCallAnalysis(assistant)) return;
      await enqueueCallMetering(ctx, workspaceId, callId);
      log.debug({ callId }, "call queued for metering");
    },
    onError(err, { workspaceId, callId }) {
      log.error({ err, workspaceId, callId }, "could not free an ended call's minutes or queue its metering");
    },
  });
}

/** Queues the job that writes a finished call's usage rows. */
export async function enqueueCallMetering(ctx: AppContext, workspaceId: string, callId: string): Promise<void> {
  await enqueueJob(ctx.db, METER_QUEUE, { workspaceId, callId });
}

async function meterCallJob(db: Executor, payload: Record<string, unknown>): Promise<void> {
  const { workspaceId, callId } = MeterPayload.parse(payload);
  let call: CallLog;
  try {
    call = await getCallLog(db, { workspaceId }, callId);
  } catch (error) {
    // The log (or its workspace) was deleted before the job ran: nothing left to bill.
    if (error instanceof AppError && error.status === 404) return;
    throw error;
  }
  await recordUsage(db, workspaceId, call);
}

/** Writes a finished call's usage lines as rows; writing them again changes nothing. */
export async function recordUsage(db: Executor, workspaceId: string, call: CallLog): Promise<void> {
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
