import {
  AlertEventList,
  AlertRule,
  type AlertRuleInput,
  AlertRuleList,
  type AnalyticsBucket,
  type AnalyticsDimension,
  type AnalyticsMetric,
  AnalyticsResult,
  AnalyticsSettings,
  type CallChannel,
} from "@parley/contract";
import { keepPreviousData, useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";
import { useRefresh, useWorkspaceQuery } from "../../../lib/workspace-query.ts";

/** What the page asks GET /analytics/query for (its URL state). */
export interface AnalyticsParams {
  from: string;
  to: string;
  bucket: AnalyticsBucket;
  metrics: AnalyticsMetric[];
  groupBy: AnalyticsDimension | "";
  assistantId: string;
  phoneNumber: string;
  campaignId: string;
  channel: CallChannel | "";
}

const queryOf = (p: AnalyticsParams, format: "json" | "csv") => ({
  from: p.from,
  to: p.to,
  bucket: p.bucket,
  metrics: p.metrics.join(","),
  group_by: p.groupBy || undefined,
  assistant_id: p.assistantId || undefined,
  phone_number: p.phoneNumber || undefined,
  campaign_id: p.campaignId || undefined,
  channel: p.channel || undefined,
  format,
});

const keys = {
  all: (workspaceId: string) => [workspaceId, "analytics"] as const,
  rules: (workspaceId: string) => [workspaceId, "analytics", "rules"] as const,
  events: (workspaceId: string) => [workspaceId, "analytics", "events"] as const,
  settings: (workspaceId: string) => [workspaceId, "analytics", "settings"] as const,
};

export const useAnalytics = (p: AnalyticsParams) =>
  useWorkspaceQuery(
    (workspaceId) => [...keys.all(workspaceId), "query", p] as const,
    async () => AnalyticsResult.parse(await api.request("/analytics/query", { query: queryOf(p, "json") })),
    // A new range keeps the old figures on screen until the new ones arrive.
    { placeholderData: keepPreviousData },
  );

export interface FilterChoice {
  id: string;
  name: string;
}

/** What the filters can choose from: the assistants, numbers and campaigns with calls in the range (one query). */
export function useFilterChoices(from: string, to: string) {
  const query = useWorkspaceQuery(
    (workspaceId) => [...keys.all(workspaceId), "choices", from, to] as const,
    async () =>
      AnalyticsResult.parse(
        await api.request("/analytics/query", {
          query: { from, to, bucket: "total", metrics: "attempts", group_by: "assistant,phone_number,campaign" },
        }),
      ),
  );
  const distinct = (dim: "assistant" | "phone_number" | "campaign"): FilterChoice[] => {
    const seen = new Map<string, string>();
    for (const row of query.data?.rows ?? []) {
      const key = row.keys[dim];
      if (key?.value && !seen.has(key.value)) seen.set(key.value, key.label || key.value);
    }
    return [...seen].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
  };
  return { assistants: distinct("assistant"), phoneNumbers: distinct("phone_number"), campaigns: distinct("campaign") };
}

/** Fetches the same query as CSV with the session's token and saves it as a file. */
export async function downloadAnalyticsCsv(p: AnalyticsParams): Promise<void> {
  const response = await api.send("/analytics/query", { query: queryOf(p, "csv") });
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = `analytics-${p.from}-${p.to}.csv`;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the file over; the object URL may go once the browser read it.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

export const useAnalyticsSettings = () =>
  useWorkspaceQuery(keys.settings, async () => AnalyticsSettings.parse(await api.request("/analytics/settings")));

export function useSaveSettings() {
  const refresh = useRefresh(keys.all);
  return useMutation({
    mutationFn: async (body: AnalyticsSettings) =>
      AnalyticsSettings.parse(await api.request("/analytics/settings", { method: "PUT", body })),
    onSuccess: () => refresh(),
  });
}

export const useAlertRules = () =>
  useWorkspaceQuery(keys.rules, async () => AlertRuleList.parse(await api.request("/analytics/alerts/rules")));

export const useAlertEvents = () =>
  useWorkspaceQuery(keys.events, async () => AlertEventList.parse(await api.request("/analytics/alerts/events")));

export function useSaveRule() {
  const refresh = useRefresh(keys.rules);
  return useMutation({
    mutationFn: async ({ id, body }: { id?: string; body: AlertRuleInput }) =>
      AlertRule.parse(
        await api.request(id ? `/analytics/alerts/rules/${id}` : "/analytics/alerts/rules", {
          method: id ? "PUT" : "POST",
          body,
        }),
      ),
    onSuccess: () => refresh(),
  });
}

export function useDeleteRule() {
  const refresh = useRefresh(keys.rules);
  return useMutation({
    mutationFn: (id: string) => api.request(`/analytics/alerts/rules/${id}`, { method: "DELETE" }),
    onSuccess: () => refresh(),
  });
}
