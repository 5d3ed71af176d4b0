import {
  CreatedWebhookEndpoint,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookSecret,
} from "@parley/contract";
import { keepPreviousData, useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";
import { useRefresh, useWorkspaceQuery } from "../../../lib/workspace-query.ts";

const webhookKeys = {
  all: (workspaceId: string) => [workspaceId, "webhooks"] as const,
  list: (workspaceId: string) => [workspaceId, "webhooks", "list"] as const,
  deliveries: (workspaceId: string, id: string, page: number) =>
    [workspaceId, "webhooks", "deliveries", id, page] as const,
};

export const useWebhooks = () =>
  useWorkspaceQuery(webhookKeys.list, async () => WebhookEndpointList.parse(await api.request("/webhooks")));

export type WebhookBody = CreateWebhookBody | UpdateWebhookBody;
/** A saved endpoint: a new one carries its secret, a changed one none. */
export type SavedWebhook = WebhookEndpoint & { secret: string | null };

/** Creates (the answer carries the secret) or changes an endpoint. */
export function useSaveWebhook() {
  const refresh = useRefresh(webhookKeys.all);
  return useMutation({
    mutationFn: async ({ id, body }: { id: string | null; body: WebhookBody }): Promise<SavedWebhook> =>
      id
        ? { ...WebhookEndpoint.parse(await api.request(`/webhooks/${id}`, { method: "PATCH", body })), secret: null }
        : CreatedWebhookEndpoint.parse(await api.request("/webhooks", { method: "POST", body })),
    onSuccess: refresh,
  });
}

export function useDeleteWebhook() {
  const refresh = useRefresh(webhookKeys.all);
  return useMutation({
    mutationFn: (id: string) => api.request(`/webhooks/${id}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
}

/** Reads the signing secret (kept out of the cache: it is shown while the dialog is open only). */
export function useRevealSecret() {
  return useMutation({
    mutationFn: async (id: string) => WebhookSecret.parse(await api.request(`/webhooks/${id}/secret`)).secret,
  });
}

export function useRotateSecret() {
  return useMutation({
    mutationFn: async (id: string) =>
      WebhookSecret.parse(await api.request(`/webhooks/${id}/rotate-secret`, { method: "POST" })).secret,
  });
}

export function useSendTestEvent() {
  const refresh = useRefresh(webhookKeys.all);
  return useMutation({
    mutationFn: async (id: string) =>
      WebhookDelivery.parse(await api.request(`/webhooks/${id}/test`, { method: "POST" })),
    onSuccess: refresh,
  });
}

/** One page of an endpoint's delivery log; refreshed every few seconds while deliveries are pending. */
export function useDeliveries(id: string, page: number) {
  return useWorkspaceQuery(
    (workspaceId) => webhookKeys.deliveries(workspaceId, id, page),
    async () =>
      WebhookDeliveryPage.parse(await api.request(`/webhooks/${id}/deliveries?page=${page}&items_per_page=10`)),
    {
      placeholderData: keepPreviousData,
      refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === "pending") ? 3000 : false),
    },
  );
}

export function useResendDelivery() {
  const refresh = useRefresh(webhookKeys.all);
  return useMutation({
    mutationFn: async ({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) =>
      WebhookDelivery.parse(
        await api.request(`/webhooks/${endpointId}/deliveries/${deliveryId}/resend`, { method: "POST" }),
      ),
    onSuccess: refresh,
  });
}
