import { Assistant, type CreateAssistantBody, type UpdateAssistantBody } from "@parley/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { useWorkspaceId } from "../lib/auth-context.ts";
import { ApiError, api } from "../lib/http-client.ts";
import { fetchAssistantFunctions, functionKeys, unassignFunction } from "./functions.ts";

/** The workspace's assistants ("agents"), spec §3/§7. */
export const assistantKeys = {
  all: (workspaceId: string) => [workspaceId, "assistants"] as const,
  list: (workspaceId: string) => [workspaceId, "assistants", "list"] as const,
  detail: (workspaceId: string, id: string) => [workspaceId, "assistants", "detail", id] as const,
};

const AssistantList = z.array(Assistant);

/** Spec §3: assistants flagged temp never appear in the list. */
export function visibleAssistants(list: readonly Assistant[]): Assistant[] {
  return list.filter((a) => !a.temp);
}

/** GET /agents: a 404 means "none yet" and temp assistants are hidden (spec §7, §8). */
export async function fetchAssistants(): Promise<Assistant[]> {
  try {
    return visibleAssistants(AssistantList.parse(await api.request("/agents")));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

export function useAssistants() {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: assistantKeys.list(workspaceId), queryFn: fetchAssistants });
}

/** How many assistants the workspace has, read from the same cached list. */
export function useAssistantCount() {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: assistantKeys.list(workspaceId), queryFn: fetchAssistants, select: (a) => a.length });
}

export function useAssistant(id: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: assistantKeys.detail(workspaceId, id),
    queryFn: async () => Assistant.parse(await api.request(`/agents/${id}`)),
  });
}

/** After a create or an update: the answer is the cached assistant, and the list is read again. */
function useStoreAssistant() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return (assistant: Assistant) => {
    queryClient.setQueryData(assistantKeys.detail(workspaceId, assistant.id), assistant);
    return queryClient.invalidateQueries({ queryKey: assistantKeys.list(workspaceId) });
  };
}

export function useCreateAssistant() {
  const store = useStoreAssistant();
  return useMutation({
    mutationFn: async (body: CreateAssistantBody) =>
      Assistant.parse(await api.request("/agents", { method: "POST", body })),
    onSuccess: store,
  });
}

export function useUpdateAssistant(id: string) {
  const store = useStoreAssistant();
  return useMutation({
    mutationFn: async (body: UpdateAssistantBody) =>
      Assistant.parse(await api.request(`/agents/${id}`, { method: "PATCH", body })),
    onSuccess: store,
  });
}

/** Spec §7: the assistant's functions are unassigned one by one before the assistant is deleted. */
export function useDeleteAssistant() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      for (const fn of await fetchAssistantFunctions(id)) await unassignFunction(id, fn.id);
      await api.request(`/agents/${id}`, { method: "DELETE" });
    },
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: assistantKeys.detail(workspaceId, id) });
      queryClient.removeQueries({ queryKey: functionKeys.ofAssistant(workspaceId, id) });
      return queryClient.invalidateQueries({ queryKey: assistantKeys.list(workspaceId) });
    },
  });
}
