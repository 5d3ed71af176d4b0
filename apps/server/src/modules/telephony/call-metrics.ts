import type { TurnMetricsEntry } from "@parley/contract";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { CallMetrics } from "../calls/call-metrics.ts";

/**
 * Phone calls count in the same /metrics series as browser calls (labelled by channel). The calls
 * module registers those series; registering them again would throw, so this looks them up by name
 * when a call starts or ends (whichever module's routes were registered first).
 */
export function sharedCallMetrics(registry: Registry | undefined): CallMetrics {
  const gauge = (name: string) => {
    const metric = registry?.getSingleMetric(name);
    return metric instanceof Gauge ? metric : null;
  };
  const counter = (name: string) => {
    const metric = registry?.getSingleMetric(name);
    return metric instanceof Counter ? metric : null;
  };
  const observe = (name: string, ms: number | null) => {
    const metric = registry?.getSingleMetric(name);
    if (ms !== null && metric instanceof Histogram) metric.observe(ms / 1000);
  };
  return {
    callStarted: (channel) => gauge("parley_calls_active")?.inc({ channel }),
    callEnded(channel, status, reason) {
      gauge("parley_calls_active")?.dec({ channel });
      counter("parley_calls_ended_total")?.inc({ channel, status, reason });
    },
    turn(m: TurnMetricsEntry) {
      observe("parley_turn_voice_to_voice_seconds", m.voice_to_voice_ms);
      observe("parley_turn_llm_ttft_seconds", m.llm_ttft_ms);
      observe("parley_turn_tts_ttfb_seconds", m.tts_ttfb_ms);
    },
  };
}
