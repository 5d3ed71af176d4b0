import type { AnalyticsMetric, LatencyComponent } from "@parley/contract";
import { DURATION_BOUNDS_S, LATENCY_BOUNDS_MS, quantileOf } from "./histograms.ts";

/** A group's sums over its rollup rows (histograms only when a quantile was asked for). */
export interface Sums {
  attempts: number;
  answered: number;
  failed: number;
  errorCalls: number;
  transfers: number;
  analysed: number;
  passed: number;
  durationSeconds: number;
  cost: number;
  costLlm: number;
  costStt: number;
  costTts: number;
  costTelephony: number;
  costPlatform: number;
  durationHist?: number[];
  latency: Record<LatencyComponent, { sum: number; hist?: number[] }>;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
/** A share in percent; null when there is nothing to share out. */
const percent = (part: number, whole: number) => (whole > 0 ? round((part / whole) * 100, 2) : null);
const money = (n: number) => round(n, 6);
const total = (hist: number[] | undefined) => (hist ?? []).reduce((a, b) => a + b, 0);

function latencyValue(sums: Sums, kind: "avg" | "p50" | "p95", component: LatencyComponent): number | null {
  const { sum, hist } = sums.latency[component];
  if (kind === "avg") {
    const n = total(hist);
    return n > 0 ? Math.round(sum / n) : null;
  }
  const q = quantileOf(LATENCY_BOUNDS_MS, hist ?? [], kind === "p50" ? 0.5 : 0.95);
  return q === null ? null : Math.round(q);
}

/** One metric from a group's sums (what each means: docs/analytics.md). */
export function metricValue(sums: Sums, metric: AnalyticsMetric): number | null {
  const latency = /^latency_(avg|p50|p95)_(.+)$/.exec(metric);
  if (latency) return latencyValue(sums, latency[1] as "avg" | "p50" | "p95", latency[2] as LatencyComponent);
  switch (metric) {
    case "calls":
      return sums.answered;
    case "attempts":
      return sums.attempts;
    case "unanswered":
      return sums.attempts - sums.answered;
    case "minutes":
      return round(sums.durationSeconds / 60, 6);
    case "avg_duration_seconds":
      return sums.answered > 0 ? round(sums.durationSeconds / sums.answered, 1) : null;
    case "p50_duration_seconds":
    case "p95_duration_seconds": {
      const q = quantileOf(DURATION_BOUNDS_S, sums.durationHist ?? [], metric.startsWith("p50") ? 0.5 : 0.95);
      return q === null ? null : round(q, 1);
    }
    case "analysed":
      return sums.analysed;
    case "passed":
      return sums.passed;
    case "success_rate":
      return percent(sums.passed, sums.analysed);
    case "transfers":
      return sums.transfers;
    case "transfer_rate":
      return percent(sums.transfers, sums.answered);
    case "failed":
      return sums.failed;
    case "error_calls":
      return sums.errorCalls;
    case "error_rate":
      return percent(sums.errorCalls, sums.attempts);
    case "cost":
      return money(sums.cost);
    case "cost_llm":
      return money(sums.costLlm);
    case "cost_stt":
      return money(sums.costStt);
    case "cost_tts":
      return money(sums.costTts);
    case "cost_telephony":
      return money(sums.costTelephony);
    case "cost_platform":
      return money(sums.costPlatform);
    default:
      return null;
  }
}

export const metricValues = (sums: Sums, metrics: readonly AnalyticsMetric[]) =>
  Object.fromEntries(metrics.map((m) => [m, metricValue(sums, m)])) as Partial<Record<AnalyticsMetric, number | null>>;

/** Which histograms the metrics read. */
export function histogramsNeeded(metrics: readonly AnalyticsMetric[]) {
  return {
    duration: metrics.some((m) => /^p\d+_duration/.test(m)),
    latency: new Set(
      metrics.flatMap((m) => {
        const hit = /^latency_(avg|p50|p95)_(.+)$/.exec(m);
        return hit ? [hit[2] as LatencyComponent] : [];
      }),
    ),
  };
}
