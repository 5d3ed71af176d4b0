import type { Tracer } from "@opentelemetry/api";
import type { OtelApi } from "./otel-api.ts";
import type { JobAttempt, JobSpan } from "./tracing-types.ts";

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** A span per job attempt, "job <queue>", its own trace (jobs run apart from the request that queued them). */
export function otelJobSpans(api: OtelApi, tracer: Tracer): { startJob(job: JobAttempt): JobSpan } {
  return {
    startJob(job) {
      const workspaceId = text(job.payload.workspaceId);
      const callId = text(job.payload.callId);
      const span = tracer.startSpan(`job ${job.queue}`, {
        root: true,
        attributes: {
          "parley.job.name": job.queue,
          "parley.job.id": job.id,
          "parley.job.attempt": job.attempt,
          "parley.job.max_attempts": job.maxAttempts,
          ...(workspaceId ? { "parley.workspace_id": workspaceId } : {}),
          ...(callId ? { "parley.call_id": callId } : {}),
        },
      });
      return {
        end(outcome) {
          span.setAttribute("parley.job.outcome", outcome.outcome);
          if ("error" in outcome) {
            span.setAttribute("parley.job.error", outcome.error);
            span.setStatus({ code: api.SpanStatusCode.ERROR, message: outcome.error });
          }
          span.end();
        },
      };
    },
  };
}
