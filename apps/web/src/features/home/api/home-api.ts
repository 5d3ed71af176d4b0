import { CallStatsResponse } from "@parley/contract";
import { useQuery } from "@tanstack/react-query";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { api } from "../../../lib/http-client.ts";

export const homeKeys = { callStats: (workspaceId: string) => [workspaceId, "call-stats"] as const };

/** The month's call figures and latest calls of the workspace. */
export function useCallStats() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: homeKeys.callStats(workspaceId),
    queryFn: async () => CallStatsResponse.parse(await api.request("/call-logs/stats")),
    // Active calls change while the page is open.
    refetchInterval: 30_000,
  });
}
