import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import type { FastifyBaseLogger } from "fastify";
import { otelCallSpans } from "./call-spans.ts";
import { otelJobSpans } from "./job-spans.ts";
import type { TracingConfig } from "./tracing-config.ts";
import type { Tracing } from "./tracing-types.ts";

/** How long closing waits for the last spans to reach the collector. */
const SHUTDOWN_TIMEOUT_MS = 5_000;

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
export function otelTracing(config: TracingConfig, log: FastifyBaseLogger): Tracing {
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
    calls: otelCallSpans(tracer),
    jobs: otelJobSpans(tracer),
    flush: () => provider.forceFlush({ timeoutMillis: SHUTDOWN_TIMEOUT_MS }),
    shutdown: () => {
      closed ??= provider
        .forceFlush({ timeoutMillis: SHUTDOWN_TIMEOUT_MS })
        .then(() => provider.shutdown())
        .catch((err: unknown) => log.warn({ err, collector: target }, "could not send the last traces"));
      return closed;
    },
  };
}
