import type { AnalyticsMetric } from "@parley/contract";

/** What the page asks for: the table's columns, in order. */
export const DASHBOARD_METRICS: AnalyticsMetric[] = [
  "calls",
  "attempts",
  "unanswered",
  "minutes",
  "avg_duration_seconds",
  "p50_duration_seconds",
  "p95_duration_seconds",
  "success_rate",
  "transfer_rate",
  "error_rate",
  "latency_p50_voice_to_voice",
  "latency_p95_voice_to_voice",
  "latency_p95_end_of_turn",
  "latency_p95_transcriber",
  "latency_p95_model",
  "latency_p95_voice",
  "cost",
  "cost_llm",
  "cost_stt",
  "cost_tts",
  "cost_telephony",
];

/** What the chart can draw. */
export const CHART_METRICS: AnalyticsMetric[] = DASHBOARD_METRICS;

/** The headline figures over the range. */
export const FIGURE_METRICS: AnalyticsMetric[] = [
  "calls",
  "minutes",
  "success_rate",
  "latency_p95_voice_to_voice",
  "cost",
];
