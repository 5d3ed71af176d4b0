import type {
  Integration,
  IntegrationsResponse,
  IntegrationTestResult,
  MessageResponse,
  SaveIntegrationBody,
} from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";

export const integrationsQuery = () =>
  queryOptions({
    queryKey: ["integrations"],
    queryFn: async () => (await api.request<IntegrationsResponse>("/integrations")).integrations,
  });

export const saveIntegration = (provider: string, credentials: SaveIntegrationBody["credentials"]) =>
  api.request<Integration>(`/integrations/${provider}`, { method: "PUT", body: { credentials } });
export const removeIntegration = (provider: string) =>
  api.request<MessageResponse>(`/integrations/${provider}`, { method: "DELETE" });
/** Tests the typed credentials (merged over the stored ones) or, without any, the stored ones. */
export const testIntegration = (provider: string, credentials?: Record<string, string>) =>
  api.request<IntegrationTestResult>(`/integrations/${provider}/test`, {
    method: "POST",
    body: credentials ? { credentials } : {},
  });
