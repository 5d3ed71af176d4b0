import { describe, expect, it } from "vitest";
import { ConfigError } from "../../config.ts";
import { tracingConfig } from "./tracing-config.ts";

describe("tracing settings", () => {
  it("are off without an OTLP endpoint", () => {
    expect(tracingConfig({})).toBeNull();
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: " ", OTEL_SERVICE_NAME: "voice" })).toBeNull();
  });

  it("post to <endpoint>/v1/traces as the service parley by default", () => {
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toEqual({
      tracesUrl: "http://collector:4318/v1/traces",
      headers: {},
      serviceName: "parley",
    });
  });

  it("prefer the traces endpoint as given, and read the service name and URL-encoded headers", () => {
    expect(
      tracingConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://tempo.example.com/otlp/v1/traces",
        OTEL_EXPORTER_OTLP_HEADERS: "x-scope-orgid=parley, authorization=Basic%20dXNlcjpwYXNz",
        OTEL_SERVICE_NAME: "parley-eu",
      }),
    ).toEqual({
      tracesUrl: "https://tempo.example.com/otlp/v1/traces",
      headers: { "x-scope-orgid": "parley", authorization: "Basic dXNlcjpwYXNz" },
      serviceName: "parley-eu",
    });
  });

  it("are off when the SDK is disabled, even with an endpoint", () => {
    expect(
      tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }),
    ).toBeNull();
  });

  it("stop the server naming the bad variable, never a header's value", () => {
    expect(() => tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT: must be an http\(s\) URL/,
    );
    const headers = () =>
      tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_HEADERS: "secret-token-value" });
    expect(headers).toThrow(ConfigError);
    expect(headers).toThrow(/OTEL_EXPORTER_OTLP_HEADERS: entry 1 is not name=value/);
    expect(headers).not.toThrow(/secret-token-value/);
  });
});
