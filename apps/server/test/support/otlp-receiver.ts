import type { IncomingHttpHeaders } from "node:http";
import { startReceiver } from "./loopback.ts";

/**
 * An OpenTelemetry collector on 127.0.0.1 that takes OTLP/HTTP JSON at POST /v1/traces
 * (https://opentelemetry.io/docs/specs/otlp/#otlphttp) and keeps the spans, decoded. Written from
 * the protocol, not from the exporter, so the test checks what a real collector would receive.
 */

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value?: AnyValue };
type Attribute = string | number | boolean | Attribute[] | null;

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: KeyValue[];
  events?: { name: string; timeUnixNano: string | number; attributes?: KeyValue[] }[];
  status?: { code?: number; message?: string };
}

interface ExportTraceServiceRequest {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Absent for a trace's root span. */
  parentSpanId: string | undefined;
  name: string;
  /** Milliseconds since the epoch, from the span's nanoseconds. */
  startMs: number;
  endMs: number;
  durationMs: number;
  attributes: Record<string, Attribute>;
  events: { name: string; attributes: Record<string, Attribute> }[];
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string | undefined };
  resource: Record<string, Attribute>;
}

function attributeValue(value: AnyValue | undefined): Attribute {
  if (!value) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(attributeValue);
  return null;
}

const attributesOf = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, attributeValue(kv.value)]));

/** Nanoseconds (a decimal string or a number in JSON) as milliseconds, exact to the microsecond. */
const nanosToMs = (nanos: string | number) => Number(BigInt(nanos) / 1000n) / 1000;

export function decodeTraces(body: string): ReceivedSpan[] {
  const request = JSON.parse(body) as ExportTraceServiceRequest;
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => {
        const startMs = nanosToMs(span.startTimeUnixNano);
        const endMs = nanosToMs(span.endTimeUnixNano);
        return {
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          startMs,
          endMs,
          durationMs: endMs - startMs,
          attributes: attributesOf(span.attributes),
          events: (span.events ?? []).map((event) => ({
            name: event.name,
            attributes: attributesOf(event.attributes),
          })),
          status: { code: span.status?.code ?? 0, message: span.status?.message },
          resource,
        };
      }),
    );
  });
}

export interface OtlpReceiver {
  /** http://127.0.0.1:port: the value of OTEL_EXPORTER_OTLP_ENDPOINT. */
  origin: string;
  /** Every span received so far, oldest first. */
  spans: ReceivedSpan[];
  /** The headers of each export request. */
  exports: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const exports: IncomingHttpHeaders[] = [];
  const server = await startReceiver((request, res) => {
    if (request.method !== "POST" || request.url !== "/v1/traces") {
      res.writeHead(404).end();
      return;
    }
    if (!String(request.headers["content-type"]).startsWith("application/json")) {
      res.writeHead(415).end();
      return;
    }
    exports.push(request.headers);
    spans.push(...decodeTraces(request.body));
    // An ExportTraceServiceResponse without partial_success: every span was accepted.
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  return { origin: server.origin, spans, exports, close: server.close };
}
