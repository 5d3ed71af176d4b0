import { SquadListResponse } from "@parley/contract";
import { api } from "../../../lib/http-client.ts";
import { useWorkspaceQuery } from "../../../lib/workspace-query.ts";

/** The workspace's squads by id and name, for choosing who answers a number (issue 31). */
export function useSquadOptions() {
  return useWorkspaceQuery(
    (workspaceId) => [workspaceId, "squads", "list", "options"],
    async () => SquadListResponse.parse(await api.request("/squads")).squads.map((s) => ({ id: s.id, name: s.name })),
  );
}
