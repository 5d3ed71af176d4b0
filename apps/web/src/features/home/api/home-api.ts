import type { Assistant, CallStatsResponse } from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { ApiError, api } from "../../../lib/http-client.ts";

/** How many assistants the workspace has (spec §7: a 404 is an empty list, temp ones are hidden). */
export const assistantCountQuery = () =>
  queryOptions({
    queryKey: ["agents", "count"],
    queryFn: async () => {
      try {
        const agents = await api.request<Assistant[]>("/agents");
        return agents.filter((a) => !a.temp).length;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return 0;
        throw error;
      }
    },
  });

export const callStatsQuery = () =>
  queryOptions({
    queryKey: ["call-logs", "stats"],
    queryFn: () => api.request<CallStatsResponse>("/call-logs/stats"),
    // Active calls change while the page is open.
    refetchInterval: 30_000,
  });
