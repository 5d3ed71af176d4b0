import { ApiKey, ApiKeyList, type CreateApiKeyBody, CreatedApiKey } from "@parley/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { api } from "../../../lib/http-client.ts";

const apiKeyKeys = { list: (workspaceId: string) => [workspaceId, "api-keys"] as const };

/** The workspace's API keys, revoked ones included (they show their last use). */
export function useApiKeys() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: apiKeyKeys.list(workspaceId),
    queryFn: async () => ApiKeyList.parse(await api.request("/api-keys")),
  });
}

function useRefreshKeys() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(workspaceId) });
}

/** Creates a key; the answer carries its secret, which the server never shows again. */
export function useCreateApiKey() {
  const refresh = useRefreshKeys();
  return useMutation({
    mutationFn: async (body: CreateApiKeyBody) =>
      CreatedApiKey.parse(await api.request("/api-keys", { method: "POST", body })),
    onSuccess: refresh,
  });
}

export function useRevokeApiKey() {
  const refresh = useRefreshKeys();
  return useMutation({
    mutationFn: async (id: string) => ApiKey.parse(await api.request(`/api-keys/${id}/revoke`, { method: "POST" })),
    onSuccess: refresh,
  });
}
