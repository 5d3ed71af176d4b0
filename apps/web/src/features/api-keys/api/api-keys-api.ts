import { ApiKey, ApiKeyList, type CreateApiKeyBody, CreatedApiKey } from "@parley/contract";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";
import { useRefresh, useWorkspaceQuery } from "../../../lib/workspace-query.ts";

const apiKeyKeys = { list: (workspaceId: string) => [workspaceId, "api-keys"] as const };

/** The workspace's API keys, revoked ones included (they show their last use). */
export const useApiKeys = () =>
  useWorkspaceQuery(apiKeyKeys.list, async () => ApiKeyList.parse(await api.request("/api-keys")));

/** Creates a key; the answer carries its secret, which the server never shows again. */
export function useCreateApiKey() {
  const refresh = useRefresh(apiKeyKeys.list);
  return useMutation({
    mutationFn: async (body: CreateApiKeyBody) =>
      CreatedApiKey.parse(await api.request("/api-keys", { method: "POST", body })),
    onSuccess: refresh,
  });
}

export function useRevokeApiKey() {
  const refresh = useRefresh(apiKeyKeys.list);
  return useMutation({
    mutationFn: async (id: string) => ApiKey.parse(await api.request(`/api-keys/${id}/revoke`, { method: "POST" })),
    onSuccess: refresh,
  });
}
