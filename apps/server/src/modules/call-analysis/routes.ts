import { needsPostCallAnalysis } from "@parley/contract";
import type { FastifyInstance } from "fastify";
import { followCallEnds } from "../call-logs/call-end-follow-ups.ts";
import { saveCallAnalysis } from "../call-logs/service.ts";
import { keepsMetadataOnly } from "../calls/call-privacy.ts";
import { getPrivacySettings } from "../privacy/settings.ts";
import {
  ANALYSIS_MAX_ATTEMPTS,
  ANALYSIS_QUEUE,
  type AnalysisFinished,
  PENDING_ANALYSIS,
  runAnalysisJob,
} from "./analysis-job.ts";

export interface CallAnalysisOptions {
  /**
   * Runs once a call's analysis is final (done or failed): the app passes the webhooks module's
   * enqueueCallEndedWebhook and the billing module's enqueueCallMetering, which send the call.ended
   * and write the usage they held back for this call (both ask `needsPostCallAnalysis`, in the
   * contract). Injected rather than imported: modules must not import each other both ways.
   */
  onFinished: AnalysisFinished;
}

/**
 * Post-call analysis: no routes of its own (the result is read with the call log); it listens for
 * call.ended and analyses the calls whose assistant asks for it on the durable job runner.
 * Needs registerJobs(app).
 */
export async function callAnalysisRoutes(app: FastifyInstance, options: CallAnalysisOptions) {
  const { ctx, jobs } = app;
  const finished: AnalysisFinished = async (...args) => {
    await options.onFinished(...args);
    // Whatever it enqueued (webhook deliveries) starts now rather than at the runner's next poll.
    jobs.wake();
  };
  jobs.register(ANALYSIS_QUEUE, (payload, job) => runAnalysisJob(ctx, app.log, payload, job, finished));

  /**
   * Marks the call's analysis pending and enqueues it in one transaction, so the call's page shows
   * "pending" exactly when a job will resolve it.
   */
  const unsubscribe = followCallEnds(ctx, {
    async run({ workspaceId, callId, channel }, assistant) {
      if (!assistant || !needsPostCallAnalysis(assistant)) return;
      const tenant = { workspaceId };
      // Zero-retention keeps nothing said, so nothing is analysed: what waits for the analysis
      // (the call.ended webhook, metering) goes at once, the call's analysis stays empty.
      if (keepsMetadataOnly(await getPrivacySettings(ctx.db, tenant), channel)) {
        await finished(ctx, workspaceId, callId);
        return;
      }
      await ctx.db.transaction(async (tx) => {
        if (!(await saveCallAnalysis(tx, tenant, callId, PENDING_ANALYSIS))) return;
        await jobs.enqueue(tx, ANALYSIS_QUEUE, { workspaceId, callId }, { maxAttempts: ANALYSIS_MAX_ATTEMPTS });
      });
      // The enqueue's own wake-up ran before the transaction committed.
      jobs.wake();
    },
    onError(err, { workspaceId, callId }) {
      app.log.error({ err, workspaceId, callId }, "could not enqueue a post-call analysis");
    },
  });
  app.addHook("onClose", async () => unsubscribe());
}
