import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createCallMetrics } from "./call-metrics.ts";

describe("call metrics", () => {
  it("count provider faults by stage, provider and action, and fallbacks by stage", async () => {
    const registry = new Registry();
    const metrics = createCallMetrics(registry);
    metrics.fault("llm", "openai", "fallback");
    metrics.fault("llm", "openai", "fallback");
    metrics.fault("tts", "deepgram", "retried");
    const text = await registry.metrics();
    expect(text).toContain('parley_provider_faults_total{stage="llm",provider="openai",action="fallback"} 2');
    expect(text).toContain('parley_provider_faults_total{stage="tts",provider="deepgram",action="retried"} 1');
    expect(text).toContain('parley_provider_fallbacks_total{stage="llm"} 2');
    expect(text).not.toContain('parley_provider_fallbacks_total{stage="tts"}');
  });
});
