import type { AnalyticsMetric } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { datesIn } from "../../../lib/dates-in-language.ts";

/** Each metric in its unit, in the interface language: money, percent, milliseconds, seconds, counts. */
export function useMetricFormat() {
  const { i18n, t } = useTranslation("analytics");
  const lang = i18n.language;
  const money = new Intl.NumberFormat(lang, { style: "currency", currency: "USD", maximumFractionDigits: 4 });
  const plain = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 });
  const dates = datesIn(lang);
  const value = (metric: AnalyticsMetric, n: number | null | undefined): string => {
    if (n === null || n === undefined) return "—";
    if (metric === "cost" || metric.startsWith("cost_")) return money.format(n);
    if (metric.endsWith("_rate")) return percent.format(n / 100);
    if (metric.startsWith("latency_")) return t("unit.ms", { value: plain.format(n) });
    if (metric.endsWith("_seconds")) return t("unit.seconds", { value: plain.format(n) });
    return plain.format(n);
  };
  const label = (metric: AnalyticsMetric) => {
    const latency = /^latency_(avg|p50|p95)_(.+)$/.exec(metric);
    if (latency) return t("latencyLabel", { stat: t(`stat.${latency[1]}`), component: t(`component.${latency[2]}`) });
    return t(`metric.${metric}`);
  };
  return { value, day: dates.day, label };
}
