import { CallStatsResponse } from "@parley/contract";
import { api } from "../../../lib/http-client.ts";
import { useWorkspaceQuery } from "../../../lib/workspace-query.ts";

export const homeKeys = { callStats: (workspaceId: string) => [workspaceId, "call-stats"] as const };

/** The month's call figures and latest calls of the workspace. */
export const useCallStats = () =>
  useWorkspaceQuery(homeKeys.callStats, async () => CallStatsResponse.parse(await api.request("/call-logs/stats")), {
    // Active calls change while the page is open.
    refetchInterval: 30_000,
  });
