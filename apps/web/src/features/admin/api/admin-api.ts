import {
  AdminNodesResponse,
  AdminStats,
  AdminUserPage,
  EnterpriseQuota,
  type QuotaBody,
  Tier,
  type TierBody,
} from "@parley/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { ApiError, api } from "../../../lib/http-client.ts";

/** Platform administration: not workspace data, so the keys start with "admin" rather than a workspace id. */
export const adminKeys = {
  all: ["admin"] as const,
  stats: ["admin", "stats"] as const,
  users: (page: number, search: string) => ["admin", "users", page, search] as const,
  userSearch: (search: string) => ["admin", "user-search", search] as const,
  tiers: ["admin", "tiers"] as const,
  quota: (userId: string) => ["admin", "quota", userId] as const,
  nodes: ["admin", "nodes"] as const,
};

const TierList = z.array(Tier);

export const useAdminStats = () =>
  useQuery({ queryKey: adminKeys.stats, queryFn: async () => AdminStats.parse(await api.request("/admin/stats")) });

/** One page (from 1) of the users matching `search`; the last page stays shown while the next loads. */
export const useAdminUsers = (page: number, search: string) =>
  useQuery({
    queryKey: adminKeys.users(page, search),
    queryFn: async () =>
      AdminUserPage.parse(
        await api.request("/admin/users", { query: { page, items_per_page: 10, search: search || undefined } }),
      ),
    placeholderData: keepPreviousData,
  });

/** The first users matching what was typed, for a picker (GET /users is paged like the admin list). */
export const useUserSearch = (search: string) =>
  useQuery({
    queryKey: adminKeys.userSearch(search),
    queryFn: async () =>
      AdminUserPage.parse(await api.request("/users", { query: { items_per_page: 20, search: search || undefined } }))
        .data,
    placeholderData: keepPreviousData,
  });

/** How often the node list is read again while it is open: each node writes its heartbeat every 5 s. */
export const NODES_REFRESH_MS = 5_000;

/** The server processes serving this database, read again every 5 s while the page is open and in view. */
export const useAdminNodes = () =>
  useQuery({
    queryKey: adminKeys.nodes,
    queryFn: async () => AdminNodesResponse.parse(await api.request("/admin/nodes")).nodes,
    refetchInterval: NODES_REFRESH_MS,
  });

export const useTiers = () =>
  useQuery({ queryKey: adminKeys.tiers, queryFn: async () => TierList.parse(await api.request("/admin/tiers")) });

/** The user's enterprise quota, or null when they have none (a normal state, not a failure). */
export const useQuota = (userId: string) =>
  useQuery({
    queryKey: adminKeys.quota(userId),
    queryFn: async () => {
      try {
        return EnterpriseQuota.parse(await api.request(`/admin/enterprise-quotas/${userId}`));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    enabled: Boolean(userId),
  });

/**
 * A user's tier, quota or status and a tier's limits all show in the users, quotas, tiers and
 * dashboard figures, so every admin write refreshes all admin data.
 */
function useAdminMutation<V>(mutationFn: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }) });
}

/** Creates (no id) or updates a tier. */
export const useSaveTier = () =>
  useAdminMutation(({ id, body }: { id: string | null; body: TierBody }) =>
    id
      ? api.request(`/admin/tiers/${id}`, { method: "PATCH", body })
      : api.request("/admin/tiers", { method: "POST", body }),
  );
export const useDeleteTier = () =>
  useAdminMutation((id: string) => api.request(`/admin/tiers/${id}`, { method: "DELETE" }));

export const useAssignTier = () =>
  useAdminMutation(({ userId, tierId }: { userId: string; tierId: string }) =>
    api.request(`/admin/users/${userId}/assign-tier-with-defaults`, { method: "POST", body: { tier_id: tierId } }),
  );
export const useRemoveTier = () =>
  useAdminMutation((userId: string) => api.request(`/admin/users/${userId}/tier`, { method: "DELETE" }));

export const useDeactivateUser = () =>
  useAdminMutation((userId: string) => api.request(`/admin/user/${userId}`, { method: "DELETE" }));
export const useDeleteUser = () =>
  useAdminMutation((userId: string) =>
    api.request(`/admin/user/${userId}`, { method: "DELETE", query: { permanent: true } }),
  );
export const useReactivateUser = () =>
  useAdminMutation((userId: string) => api.request(`/admin/user/${userId}/reactivate`, { method: "POST" }));

export const useSaveQuota = () =>
  useAdminMutation(({ userId, body }: { userId: string; body: QuotaBody }) =>
    api.request(`/admin/enterprise-quotas/${userId}`, { method: "PATCH", body }),
  );
export const useDeleteQuota = () =>
  useAdminMutation((userId: string) => api.request(`/admin/enterprise-quotas/${userId}`, { method: "DELETE" }));
