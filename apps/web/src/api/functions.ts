import { type CreateFunctionBody, FunctionList, FunctionTestResult, type UpdateFunctionBody } from "@parley/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useWorkspaceId } from "../lib/auth-context.ts";
import { api } from "../lib/http-client.ts";

/** Functions (webhook tools) of the workspace and their links to assistants, spec §7. */
export const functionKeys = {
  all: (workspaceId: string) => [workspaceId, "functions"] as const,
  list: (workspaceId: string) => [workspaceId, "functions", "list"] as const,
  ofAssistant: (workspaceId: string, assistantId: string) =>
    [workspaceId, "functions", "assistant", assistantId] as const,
};

export const fetchAssistantFunctions = async (assistantId: string) =>
  FunctionList.parse(await api.request(`/functions/agent/${assistantId}`));

const linkBody = (assistantId: string, functionId: string) => ({ agent_id: assistantId, function_id: functionId });

export const unassignFunction = (assistantId: string, functionId: string) =>
  api.request("/functions/unassign", { method: "POST", body: linkBody(assistantId, functionId) });

export const functionsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: functionKeys.list(workspaceId),
    queryFn: async () => FunctionList.parse(await api.request("/functions")),
  });

export const useFunctions = () => useQuery(functionsQuery(useWorkspaceId()));

export function useAssistantFunctions(assistantId: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: functionKeys.ofAssistant(workspaceId, assistantId),
    queryFn: () => fetchAssistantFunctions(assistantId),
  });
}

/** A blank secret is left out so an edit keeps the stored one; `null` removes it (UpdateFunctionBody). */
export type FunctionSaveBody = Omit<CreateFunctionBody, "secret"> & Pick<UpdateFunctionBody, "secret">;

/** Creates (no id) or updates a function; the lists and links that show it are refreshed. */
export function useSaveFunction() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: FunctionSaveBody }) =>
      id
        ? api.request(`/functions/${id}`, { method: "PATCH", body })
        : api.request("/functions", { method: "POST", body: { ...body, secret: body.secret ?? undefined } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: functionKeys.all(workspaceId) }),
  });
}

export function useDeleteFunction() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request(`/functions/${id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: functionKeys.all(workspaceId) }),
  });
}

/** Calls the function's endpoint through the server; it changes nothing stored. */
export const useTestFunction = (id: string) =>
  useMutation({
    mutationFn: async (args: Record<string, unknown>) =>
      FunctionTestResult.parse(
        await api.request(`/functions/${id}/test`, { method: "POST", body: { arguments: args } }),
      ),
  });

/** Links (or unlinks) a function to an assistant; that assistant's list is refreshed either way. */
export function useFunctionLink(assistantId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ functionId, linked }: { functionId: string; linked: boolean }) =>
      linked
        ? api.request("/functions/assign", { method: "POST", body: linkBody(assistantId, functionId) })
        : unassignFunction(assistantId, functionId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: functionKeys.ofAssistant(workspaceId, assistantId) }),
  });
}
