/** What the spans need of the OpenTelemetry API at run time (the rest of it is types). */
export type OtelApi = Pick<typeof import("@opentelemetry/api"), "trace" | "ROOT_CONTEXT" | "SpanStatusCode">;

/**
 * The OpenTelemetry packages, imported when tracing starts. Imported at run time rather than at
 * the top of a file: the bundled server (build.mjs) hoists a file's imports of packages to the
 * start, so a server exporting nothing would load the whole SDK.
 */
export async function loadOtel() {
  const [api, exporter, resources, sdk, semconv] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/semantic-conventions"),
  ]);
  return {
    api: api satisfies OtelApi,
    OTLPTraceExporter: exporter.OTLPTraceExporter,
    resourceFromAttributes: resources.resourceFromAttributes,
    BasicTracerProvider: sdk.BasicTracerProvider,
    BatchSpanProcessor: sdk.BatchSpanProcessor,
    ATTR_SERVICE_NAME: semconv.ATTR_SERVICE_NAME,
  };
}
