import { type CreateSquadBody, Squad, SquadListResponse } from "@parley/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { api } from "../../../lib/http-client.ts";

/** The workspace's squads (issue 31): assistants that pass one call between them. */
export const squadKeys = {
  all: (workspaceId: string) => [workspaceId, "squads"] as const,
  list: (workspaceId: string) => [workspaceId, "squads", "list"] as const,
};

export async function fetchSquads(): Promise<Squad[]> {
  return SquadListResponse.parse(await api.request("/squads")).squads;
}

export function useSquads() {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: squadKeys.list(workspaceId), queryFn: fetchSquads });
}

/** Creates (no id) or replaces a squad; the list is read again. */
export function useSaveSquad() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: string | null; body: CreateSquadBody }) =>
      Squad.parse(await api.request(id ? `/squads/${id}` : "/squads", { method: id ? "PUT" : "POST", body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: squadKeys.all(workspaceId) }),
  });
}

export function useDeleteSquad() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request(`/squads/${id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: squadKeys.all(workspaceId) }),
  });
}
