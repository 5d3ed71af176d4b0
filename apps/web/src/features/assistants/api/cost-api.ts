import { CostBreakdown, type CostPerMinuteBody } from "@parley/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { api } from "../../../lib/http-client.ts";

export const costKeys = {
  perMinute: (workspaceId: string, body: CostPerMinuteBody | null) => [workspaceId, "cost", body] as const,
};

/** POST /agents/calculate-cost-per-minute, cached per configuration (none asked while `body` is null). */
export function useCostPerMinute(body: CostPerMinuteBody | null) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: costKeys.perMinute(workspaceId, body),
    queryFn: async ({ signal }) =>
      CostBreakdown.parse(await api.request("/agents/calculate-cost-per-minute", { method: "POST", body, signal })),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
