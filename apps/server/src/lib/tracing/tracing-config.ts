import { z } from "zod";
import { ConfigError } from "../../config.ts";

/** Where and how spans are exported; null when no OTLP endpoint is set (tracing off). */
export interface TracingConfig {
  /** The OTLP/HTTP traces URL spans are posted to (JSON). */
  tracesUrl: string;
  /** Sent with every export (a collector's API key, say): never logged. */
  headers: Record<string, string>;
  serviceName: string;
}

const blankIsUnset = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const httpUrl = z.preprocess(
  blankIsUnset,
  z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as http://localhost:4318" }).optional(),
);

/**
 * The OpenTelemetry SDK's standard variables that Parley reads
 * (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/).
 */
const tracingEnvSchema = z.object({
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl,
  OTEL_EXPORTER_OTLP_HEADERS: z.preprocess(blankIsUnset, z.string().optional()),
  OTEL_SERVICE_NAME: z.preprocess(blankIsUnset, z.string().trim().default("parley")),
  OTEL_SDK_DISABLED: z.preprocess(blankIsUnset, z.enum(["true", "false"]).default("false")),
});

/**
 * `key1=value1,key2=value2` with URL-encoded values (the W3C baggage form the spec uses). A bad
 * entry is named by its position only: header values are secrets.
 */
function parseHeaders(text: string | undefined, problems: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  if (text === undefined) return headers;
  text.split(",").forEach((entry, index) => {
    if (entry.trim() === "") return;
    const at = entry.indexOf("=");
    const name = entry.slice(0, Math.max(0, at)).trim();
    if (at < 1 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      problems.push(`OTEL_EXPORTER_OTLP_HEADERS: entry ${index + 1} is not name=value`);
      return;
    }
    try {
      headers[name] = decodeURIComponent(entry.slice(at + 1).trim());
    } catch {
      problems.push(`OTEL_EXPORTER_OTLP_HEADERS: the value of ${name} is not URL-encoded text`);
    }
  });
  return headers;
}

/** The signal-specific URL wins; the general endpoint gets the traces path appended, as the SDK does. */
function tracesUrlOf(env: z.infer<typeof tracingEnvSchema>): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`;
  return undefined;
}

/**
 * Reads the tracing settings once at start (from the process environment, like the SDK would); a
 * bad value stops the server with a message naming the variable.
 */
export function tracingConfig(source: NodeJS.ProcessEnv = process.env): TracingConfig | null {
  const parsed = tracingEnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const env = parsed.data;
  const problems: string[] = [];
  const headers = parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  const tracesUrl = tracesUrlOf(env);
  if (!tracesUrl || env.OTEL_SDK_DISABLED === "true") return null;
  return { tracesUrl, headers, serviceName: env.OTEL_SERVICE_NAME };
}
