import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { followCallEnds } from "../call-logs/call-end-follow-ups.ts";
import { getCallLog } from "../call-logs/queries.ts";
import { isEnded } from "./call-measures.ts";
import { rollCall } from "./rollup-writer.ts";

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

/** Rolls up every call that ends, in turn with the other modules' follow-ups; returns the stop function. */
export function rollUpEndedCalls(ctx: AppContext, log: FastifyBaseLogger): () => void {
  return followCallEnds(ctx, {
    run: ({ workspaceId, callId }) => rollEndedCall(ctx, workspaceId, callId),
    onError(err, { workspaceId, callId }) {
      log.error({ err, workspaceId, callId }, "could not add an ended call to analytics");
    },
  });
}
