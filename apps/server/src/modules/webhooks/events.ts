import type { WebhookEventType } from "@parley/contract";
import { needsPostCallAnalysis } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import type { ServerEventMap } from "../../lib/server-events.ts";
import { findAssistant } from "../assistants/service.ts";
import { findBatchCall } from "../batch-calls/service.ts";
import { findDocument } from "../knowledge-base/service.ts";
import { loadRunSummary } from "../test-suites/views.ts";
import { enqueueCallEndedWebhook } from "./call-ended.ts";
import { fanOutEvent } from "./deliveries.ts";

/**
 * Turns server events into deliveries. Listeners only write rows (the deliveries and their jobs);
 * the sending happens on the job runner, so a slow receiver never slows a call.
 */
export function subscribeWebhookEvents(ctx: AppContext, wake: () => void): () => void {
  type Data = Record<string, unknown> | (() => Promise<Record<string, unknown>>);
  const send = (workspaceId: string, type: WebhookEventType, data: Data) =>
    fanOutEvent(ctx.db, { workspaceId }, type, data, ctx.now()).then((n) => {
      if (n > 0) wake();
    });
  const { events } = ctx;
  const unsubscribe = [
    events.on("call.started", (e) =>
      send(e.workspaceId, "call.started", { call_id: e.callId, agent_id: e.agentId, channel: e.channel }),
    ),
    events.on("call.ended", (e) => onCallEnded(ctx, e, wake)),
    events.on("call.transferred", (e) =>
      send(e.workspaceId, "call.transferred", { call_id: e.callId, agent_id: e.agentId, destination: e.destination }),
    ),
    events.on("batch.completed", (e) =>
      send(e.workspaceId, "batch.completed", async () => {
        const batch = await findBatchCall(ctx.db, { workspaceId: e.workspaceId }, e.batchCallId);
        return {
          batch_call_id: e.batchCallId,
          name: batch?.name ?? null,
          status: batch?.status ?? null,
          finished_at: batch?.finishedAt?.toISOString() ?? null,
        };
      }),
    ),
    events.on("document.ready", (e) =>
      send(e.workspaceId, "document.ready", async () => {
        const document = await findDocument(ctx.db, { workspaceId: e.workspaceId }, e.documentId);
        return {
          document_id: e.documentId,
          name: document?.name ?? null,
          status: document?.status ?? null,
          error_message: document?.errorMessage ?? null,
        };
      }),
    ),
    // The run's summary (totals, latency, cost) as GET /test-suites/{id}/runs lists it.
    events.on("test.run.completed", (e) =>
      send(
        e.workspaceId,
        "test.run.completed",
        async () => (await loadRunSummary(ctx.db, { workspaceId: e.workspaceId }, e.runId)) ?? { id: e.runId },
      ),
    ),
    events.on("phone_number.updated", (e) =>
      send(e.workspaceId, "phone_number.updated", { phone_number_id: e.phoneNumberId, action: e.action }),
    ),
  ];
  return () => {
    for (const off of unsubscribe) off();
  };
}

/** Calls whose assistant asks for analysis get their call.ended from the analysis job (call-ended.ts). */
async function onCallEnded(ctx: AppContext, e: ServerEventMap["call.ended"], wake: () => void) {
  const assistant = await findAssistant(ctx.db, { workspaceId: e.workspaceId }, e.agentId);
  if (needsPostCallAnalysis(assistant)) return;
  if ((await enqueueCallEndedWebhook(ctx, e.workspaceId, e.callId)) > 0) wake();
}
