import type { AnalyticsDimension, AnalyticsKey, AnalyticsMetric } from "@parley/contract";
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
  /**
   * A group's name: channels and end reasons in the words Home and the call logs use (their
   * namespaces load with this page: see the router), the rest as the server names them.
   */
  const keyLabel = (dim: AnalyticsDimension, key: AnalyticsKey | undefined) => {
    if (!key?.value) return key?.label || t("none");
    if (dim === "channel") return t(`channels.${key.value}`, { ns: "home", defaultValue: key.value });
    if (dim === "end_reason") return t(`reasons.${key.value}`, { ns: "call-logs", defaultValue: key.value });
    return key.label || key.value;
  };
  return { value, day: dates.day, label, keyLabel };
}
