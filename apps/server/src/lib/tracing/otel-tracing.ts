import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { FastifyBaseLogger } from "fastify";
import { otelCallSpans } from "./call-spans.ts";
import { otelJobSpans } from "./job-spans.ts";
import { loadOtel } from "./otel-api.ts";
import type { TracingConfig } from "./tracing-config.ts";
import type { Tracing } from "./tracing-types.ts";

/**
 * How long closing waits for the last spans to reach the collector: well inside the 10 s a stopping
 * server gives itself, so a collector that is down never holds the shutdown.
 */
const SHUTDOWN_TIMEOUT_MS = 3_000;

/** Resolves false when `work` has not settled within `ms`. */
function within(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  return Promise.race([work.then(() => true), late]).finally(() => clearTimeout(timer));
}

/**
 * Logs a collector that stops taking spans once, not at every batch, and when it takes them again:
 * the export keeps retrying on its own schedule either way.
 */
function reportingFailures(exporter: SpanExporter, log: FastifyBaseLogger, target: string): SpanExporter {
  let failing = false;
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        const ok = result.error === undefined && result.code === 0;
        if (!ok && !failing) log.warn({ err: result.error, collector: target }, "could not export traces");
        if (ok && failing) log.info({ collector: target }, "exporting traces again");
        failing = !ok;
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/** The OpenTelemetry SDK sending this app's call and job spans over OTLP/HTTP (JSON) in batches. */
export async function otelTracing(config: TracingConfig, log: FastifyBaseLogger): Promise<Tracing> {
  const { api, OTLPTraceExporter, resourceFromAttributes, BasicTracerProvider, BatchSpanProcessor, ATTR_SERVICE_NAME } =
    await loadOtel();
  // The collector's origin only: its path or query may carry a token.
  const target = new URL(config.tracesUrl).origin;
  const exporter = new OTLPTraceExporter({ url: config.tracesUrl, headers: config.headers });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }),
    spanProcessors: [new BatchSpanProcessor(reportingFailures(exporter, log, target))],
  });
  // This app's own provider, not the global one: apps in one process (tests) keep their traces apart.
  const tracer = provider.getTracer("parley");
  log.info({ collector: target, service: config.serviceName }, "exporting traces over OTLP");
  let closed: Promise<void> | null = null;
  return {
    exporting: true,
    calls: otelCallSpans(api, tracer),
    jobs: otelJobSpans(api, tracer),
    // A failed export was logged where it failed (reportingFailures).
    flush: () => provider.forceFlush({ timeoutMillis: SHUTDOWN_TIMEOUT_MS }).catch(() => undefined),
    shutdown: () => {
      // Shutting the provider down sends what its batch still holds.
      closed ??= within(provider.shutdown(), SHUTDOWN_TIMEOUT_MS).then(
        (sent) => {
          if (!sent) log.warn({ collector: target }, "the last traces were not sent in time");
        },
        (err: unknown) => log.warn({ err, collector: target }, "could not send the last traces"),
      );
      return closed;
    },
  };
}
