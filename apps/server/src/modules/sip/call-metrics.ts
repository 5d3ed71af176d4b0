import type { TurnMetricsEntry } from "@parley/contract";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { CallMetrics } from "../calls/call-metrics.ts";

/**
 * SIP calls count in the same /metrics series as every other call (labelled channel "sip"). The
 * calls module registers those series; this finds them by name when a call starts or ends.
 * (The telephony module has the same lookup; importing it from there would tie the two modules in
 * a cycle, since telephony places SIP calls through this module.)
 */
export function registeredCallMetrics(registry: Registry | undefined): CallMetrics {
  const metric = (name: string) => registry?.getSingleMetric(name);
  const observe = (name: string, ms: number | null) => {
    const histogram = metric(name);
    if (ms !== null && histogram instanceof Histogram) histogram.observe(ms / 1000);
  };
  return {
    callStarted(channel) {
      const active = metric("parley_calls_active");
      if (active instanceof Gauge) active.inc({ channel });
    },
    callEnded(channel, status, reason) {
      const active = metric("parley_calls_active");
      if (active instanceof Gauge) active.dec({ channel });
      const ended = metric("parley_calls_ended_total");
      if (ended instanceof Counter) ended.inc({ channel, status, reason });
    },
    turn(m: TurnMetricsEntry) {
      observe("parley_turn_voice_to_voice_seconds", m.voice_to_voice_ms);
      observe("parley_turn_llm_ttft_seconds", m.llm_ttft_ms);
      observe("parley_turn_tts_ttfb_seconds", m.tts_ttfb_ms);
    },
  };
}
