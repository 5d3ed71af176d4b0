import { ANALYSIS_DEFAULTS, type CallAnalysis, type CallLog, needsPostCallAnalysis } from "@parley/contract";
import { MissingCredentialError, ProviderError } from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { JobRow } from "../../jobs/schema.ts";
import { AppError } from "../../lib/app-error.ts";
import { failureFields } from "../../lib/log-options.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { rollEndedCall } from "../analytics/roll-ended-call.ts";
import { findAssistant } from "../assistants/service.ts";
import type { UsageMeter } from "../billing/usage-meter.ts";
import { getCallLog } from "../call-logs/queries.ts";
import { saveCallAnalysis, saveCallCost } from "../call-logs/service.ts";
import { withModelTokens } from "../calls/call-cost.ts";
import { getPrivacySettings } from "../privacy/settings.ts";
import { analyseTranscript } from "./analyse-call.ts";
import { analysisModel } from "./analysis-model.ts";
import { faultOutcome } from "./call-outcome.ts";
import { redactedTranscript } from "./redacted-transcript.ts";

export const ANALYSIS_QUEUE = "call-analysis";
/** A model that fails three times (5 s and 25 s apart) is down for longer than a call's analysis waits. */
export const ANALYSIS_MAX_ATTEMPTS = 3;

export const AnalysisJobPayload = z.object({ workspaceId: z.uuid(), callId: z.uuid() });
export type AnalysisJobPayload = z.infer<typeof AnalysisJobPayload>;

/** Runs once a call's analysis is final (done or failed): its call.ended webhook goes out then. */
export type AnalysisFinished = (ctx: AppContext, workspaceId: string, callId: string) => Promise<unknown>;

export const PENDING_ANALYSIS: CallAnalysis = {
  status: "pending",
  summary: null,
  success: null,
  structured_data: null,
  error: null,
  completed_at: null,
};

/**
 * Analyses one ended call with its assistant's model and writes the result on its call log. The
 * assistant's settings are read now (they are the ones its owner sees); a call whose log is gone
 * (deleted meanwhile) is skipped. A failing model is retried by the runner; on the last attempt,
 * or when retrying cannot help (a missing key, an invalid config), the analysis is recorded as
 * failed with the reason, so the call's page never shows "pending" for ever.
 */
export async function runAnalysisJob(
  ctx: AppContext,
  log: FastifyBaseLogger,
  payload: Record<string, unknown>,
  job: JobRow,
  finished: AnalysisFinished,
): Promise<void> {
  const { workspaceId, callId } = AnalysisJobPayload.parse(payload);
  const tenant: TenantScope = { workspaceId };
  const call = await getCallLog(ctx.db, tenant, callId).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  });
  if (!call) return;
  let meter: UsageMeter | undefined;
  const finish = async (analysis: Omit<CallAnalysis, "completed_at">) => {
    // The tokens this attempt used are the call's too, billed before anyone is told it is final.
    const used = meter?.usage();
    if (used && used.llmInputTokens + used.llmOutputTokens > 0) {
      const tokens = { input: used.llmInputTokens, output: used.llmOutputTokens };
      await saveCallCost(ctx.db, tenant, callId, withModelTokens(call.cost, call.cost_breakdown, tokens));
    }
    const saved = await saveCallAnalysis(ctx.db, tenant, callId, {
      ...analysis,
      completed_at: ctx.now().toISOString(),
    });
    if (!saved) return;
    // Analytics counts the verdict and the analysis's tokens in the call's cost once they are final.
    await rollEndedCall(ctx, workspaceId, callId).catch((err: unknown) =>
      log.error({ err, workspaceId, callId }, "could not add a call's analysis to analytics"),
    );
    await finished(ctx, workspaceId, callId);
  };
  const failed = (error: string) => finish({ ...PENDING_ANALYSIS, status: "failed", error });

  const unanalysable = await reasonNotToAnalyse(ctx, tenant, call);
  if (typeof unanalysable === "string") return failed(unanalysable);
  const assistant = unanalysable;
  try {
    const model = await analysisModel(ctx, workspaceId, assistant);
    meter = model.meter;
    const settings = assistant.analysis ?? ANALYSIS_DEFAULTS;
    const { pii_redaction } = await getPrivacySettings(ctx.db, tenant);
    const transcript = pii_redaction === "off" ? call.transcript : redactedTranscript(call.transcript);
    const parts = await analyseTranscript(model.complete, settings, transcript, faultOutcome(call));
    const { problems, ...results } = parts;
    return finish({ ...results, status: problems.length > 0 ? "failed" : "done", error: problems.join(" ") || null });
  } catch (error) {
    const hopeless = error instanceof MissingCredentialError || (error instanceof ProviderError && !error.retryable);
    const last = job.attempts >= job.maxAttempts;
    const fields = { workspaceId, callId, attempt: job.attempts, ...failureFields(error) };
    if (!hopeless && !last) {
      log.warn(fields, "post-call analysis failed: it will be tried again");
      throw error;
    }
    log.error(fields, "post-call analysis given up: the call is marked as not analysed");
    await failed(describe(error));
    if (!hopeless) throw error;
  }
}

/** The assistant to analyse the call with, or why the call cannot be analysed. */
async function reasonNotToAnalyse(ctx: AppContext, tenant: TenantScope, call: CallLog) {
  const assistant = call.agent_id ? await findAssistant(ctx.db, tenant, call.agent_id) : undefined;
  if (!assistant) return "The assistant was deleted before the call could be analysed.";
  if (!needsPostCallAnalysis(assistant)) return "Post-call analysis was turned off before the call was analysed.";
  if (call.transcript.length === 0) return "Nothing was said in the call, so there is nothing to analyse.";
  return assistant;
}

function describe(error: unknown): string {
  const detail = error instanceof MissingCredentialError ? error.detail : (error as Error)?.message;
  return `The model could not analyse the call: ${String(detail ?? error).slice(0, 500)}`;
}
