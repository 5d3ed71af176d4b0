import type { CostBreakdown, CostPerMinuteBody } from "@parley/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";

/** POST /agents/calculate-cost-per-minute, cached per configuration. */
export const costQuery = (body: CostPerMinuteBody | null) =>
  queryOptions({
    queryKey: ["assistants", "cost", body],
    queryFn: ({ signal }) =>
      api.request<CostBreakdown>("/agents/calculate-cost-per-minute", { method: "POST", body, signal }),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
