import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { CallMetrics } from "../../lib/call-runtime.ts";

/** Latency buckets (seconds) around what a voice call feels like: under 0.5 s is snappy, over 2 s is broken. */
const LATENCY_BUCKETS = [0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10];

/**
 * Live-call metrics of every channel (labelled by channel): calls active, per-turn latencies and
 * provider faults by stage, provider and what the fault policy did (a `fallback` action is a
 * switch to a backup), registered once in the /metrics registry.
 */
export function createCallMetrics(registry: Registry): CallMetrics {
  const registers = [registry];
  const active = new Gauge({
    name: "parley_calls_active",
    help: "Calls in progress",
    labelNames: ["channel"] as const,
    registers,
  });
  const ended = new Counter({
    name: "parley_calls_ended_total",
    help: "Calls ended, by status and end reason",
    labelNames: ["channel", "status", "reason"] as const,
    registers,
  });
  const faults = new Counter({
    name: "parley_provider_faults_total",
    help: "Provider and tool failures in live calls, by stage, provider and the fault policy's action",
    labelNames: ["stage", "provider", "action"] as const,
    registers,
  });
  const fallbacks = new Counter({
    name: "parley_provider_fallbacks_total",
    help: "Live calls moved from a failing provider to a backup, by stage",
    labelNames: ["stage"] as const,
    registers,
  });
  const histogram = (name: string, help: string) => new Histogram({ name, help, buckets: LATENCY_BUCKETS, registers });
  const voiceToVoice = histogram("parley_turn_voice_to_voice_seconds", "End of caller speech to first assistant audio");
  const llmTtft = histogram("parley_turn_llm_ttft_seconds", "Language model request to first token");
  const ttsTtfb = histogram("parley_turn_tts_ttfb_seconds", "Text to speech request to first audio byte");
  const observe = (h: Histogram, ms: number | null) => {
    if (ms !== null) h.observe(ms / 1000);
  };
  return {
    callStarted: (channel) => active.inc({ channel }),
    callEnded(channel, status, reason) {
      active.dec({ channel });
      ended.inc({ channel, status, reason });
    },
    fault(stage, provider, action) {
      faults.inc({ stage, provider, action });
      if (action === "fallback") fallbacks.inc({ stage });
    },
    turn(m) {
      observe(voiceToVoice, m.voice_to_voice_ms);
      observe(llmTtft, m.llm_ttft_ms);
      observe(ttsTtfb, m.tts_ttfb_ms);
    },
  };
}
