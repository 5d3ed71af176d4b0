import type { WebhookEventType } from "@parley/contract";
import { needsPostCallAnalysis } from "@parley/contract";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import { findBatchCall } from "../batch-calls/service.ts";
import { followCallEnds } from "../call-logs/call-end-follow-ups.ts";
import { findDocument } from "../knowledge-base/service.ts";
import { loadRunSummary } from "../test-suites/views.ts";
import { enqueueCallEndedWebhook } from "./call-ended.ts";
import { fanOutEvent } from "./deliveries.ts";

/**
 * Turns server events into deliveries. Listeners only write rows (the deliveries and their jobs);
 * the sending happens on the job runner, so a slow receiver never slows a call.
 */
export function subscribeWebhookEvents(ctx: AppContext, wake: () => void, log: FastifyBaseLogger): () => void {
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
    followCallEnds(ctx, {
      // Calls whose assistant asks for analysis get their call.ended from the analysis job (call-ended.ts).
      async run(e, assistant) {
        if (needsPostCallAnalysis(assistant)) return;
        if ((await enqueueCallEndedWebhook(ctx, e.workspaceId, e.callId)) > 0) wake();
      },
      onError(err, { workspaceId, callId }) {
        log.error({ err, workspaceId, callId }, "could not queue a call's call.ended webhook");
      },
    }),
    events.on("call.transferred", (e) =>
      send(e.workspaceId, "call.transferred", { call_id: e.callId, agent_id: e.agentId, destination: e.destination }),
    ),
    events.on("call.handoff", (e) =>
      send(e.workspaceId, "call.handoff", {
        call_id: e.callId,
        agent_id: e.agentId,
        from: e.from,
        to: e.to,
        reason: e.reason,
        at_ms: e.atMs,
      }),
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
