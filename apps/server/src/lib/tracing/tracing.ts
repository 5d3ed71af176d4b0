import type { CallEvent } from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";
import { type TracingConfig, tracingConfig } from "./tracing-config.ts";

/** Who a live call is, for its trace's attributes (the calls module's TracedCall). */
export interface CallIdentity {
  callId: string;
  workspaceId: string;
  agentId: string;
  channel: string;
}

/** One call's trace as the calls module drives it (its CallTrace port, implemented here). */
export interface CallSpans {
  event(event: CallEvent): void;
  end(outcome: { reason: string; status: string; durationMs: number }): void;
}

/** One attempt of a background job. */
export interface JobAttempt {
  queue: string;
  id: string;
  attempt: number;
  maxAttempts: number;
  payload: Record<string, unknown>;
}

/** How an attempt ended: finished, asked to run again later, failed and will retry, failed for good. */
export type JobOutcome = { outcome: "done" | "again" } | { outcome: "retry" | "failed"; error: string };

export interface JobSpan {
  end(outcome: JobOutcome): void;
}

/** The app's tracing: spans per call and per job, exported over OTLP when an endpoint is set. */
export interface Tracing {
  /** True when spans leave the process (an OTLP endpoint is set). */
  readonly exporting: boolean;
  /** A trace per live call (the calls module's CallTraces). */
  readonly calls: { startCall(call: CallIdentity): CallSpans };
  readonly jobs: { startJob(job: JobAttempt): JobSpan };
  /** Sends the spans still buffered. */
  flush(): Promise<void>;
  /** Sends the spans still buffered and stops exporting (the app is closing). */
  shutdown(): Promise<void>;
}

const NO_CALL_SPANS: CallSpans = { event: () => undefined, end: () => undefined };
const NO_JOB_SPAN: JobSpan = { end: () => undefined };

/** Tracing off: nothing is recorded and the SDK is never loaded. */
export const noTracing: Tracing = {
  exporting: false,
  calls: { startCall: () => NO_CALL_SPANS },
  jobs: { startJob: () => NO_JOB_SPAN },
  flush: async () => undefined,
  shutdown: async () => undefined,
};

/** The tracing each app started, found by the object the app was built around (its config). */
const started = new WeakMap<object, Tracing>();

/**
 * Starts the tracing of the app built on `owner` (its Config) from the OTEL_* variables: with an
 * OTLP endpoint the SDK is loaded and spans are exported; without one this costs nothing.
 */
export async function startTracing(
  owner: object,
  log: FastifyBaseLogger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Tracing> {
  const config: TracingConfig | null = tracingConfig(env);
  // Loaded only when asked for: a server that exports nothing never loads the SDK.
  const tracing = config ? (await import("./otel-tracing.ts")).otelTracing(config, log) : noTracing;
  started.set(owner, tracing);
  return tracing;
}

/** The tracing started for the app built on `owner`; none when it was built without it. */
export function tracingOf(owner: object): Tracing {
  return started.get(owner) ?? noTracing;
}
