import { IntegrationTestResult, type SaveIntegrationBody } from "@parley/contract";
import { useMutation } from "@tanstack/react-query";
import { integrationKeys } from "../../../api/integrations.ts";
import { api } from "../../../lib/http-client.ts";
import { useRefresh } from "../../../lib/workspace-query.ts";

export function useSaveIntegration() {
  const refresh = useRefresh(integrationKeys.list);
  return useMutation({
    mutationFn: ({ provider, credentials }: { provider: string } & SaveIntegrationBody) =>
      api.request(`/integrations/${provider}`, { method: "PUT", body: { credentials } }),
    onSuccess: refresh,
  });
}

export function useRemoveIntegration() {
  const refresh = useRefresh(integrationKeys.list);
  return useMutation({
    mutationFn: (provider: string) => api.request(`/integrations/${provider}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
}

/**
 * Tests the typed credentials (merged over the workspace's stored ones) or, without any, the stored ones. Only
 * a test of the stored credentials is remembered by the server, so only then is the list read again.
 */
export function useTestIntegration() {
  const refresh = useRefresh(integrationKeys.list);
  return useMutation({
    mutationFn: async ({ provider, credentials }: { provider: string; credentials?: Record<string, string> }) =>
      IntegrationTestResult.parse(
        await api.request(`/integrations/${provider}/test`, {
          method: "POST",
          body: credentials ? { credentials } : {},
        }),
      ),
    onSuccess: (_, { credentials }) => (credentials ? undefined : refresh()),
  });
}
