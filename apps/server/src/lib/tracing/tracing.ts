import type { FastifyBaseLogger } from "fastify";
import { type TracingConfig, tracingConfig } from "./tracing-config.ts";
import type { CallSpans, JobSpan, Tracing } from "./tracing-types.ts";

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
  const tracing = config ? await (await import("./otel-tracing.ts")).otelTracing(config, log) : noTracing;
  started.set(owner, tracing);
  return tracing;
}

/** The tracing started for the app built on `owner`; none when it was built without it. */
export function tracingOf(owner: object): Tracing {
  return started.get(owner) ?? noTracing;
}
