/**
 * For the post-call analysis job (modules/call-analysis): when `needsPostCallAnalysis` holds for a
 * call's assistant, the webhooks module does NOT send call.ended when the call ends; the analysis
 * job calls `enqueueCallEndedWebhook(ctx, workspaceId, callId)` once the analysis is saved (or has
 * failed for good), so the webhook carries it. Calls without analysis are sent at once (events.ts).
 */
import type { AppContext } from "../../context.ts";
import { getCallLog } from "../call-logs/queries.ts";
import { fanOutEvent } from "./deliveries.ts";

/** The call.ended data: the call log as GET /call-logs/{id} returns it, and a link to its recording. */
export async function callEndedData(ctx: AppContext, workspaceId: string, callId: string) {
  const call = await getCallLog(ctx.db, { workspaceId }, callId);
  const recordingUrl = call.has_recording
    ? new URL(`/api/v1/call-logs/${call.id}/recording`, ctx.config.publicUrl).toString()
    : null;
  return { call, recording_url: recordingUrl };
}

/** Queues call.ended to every endpoint of the workspace that subscribed to it; returns how many. */
export async function enqueueCallEndedWebhook(ctx: AppContext, workspaceId: string, callId: string): Promise<number> {
  return fanOutEvent(ctx.db, { workspaceId }, "call.ended", () => callEndedData(ctx, workspaceId, callId), ctx.now());
}
