import type {
  AdminStats,
  AdminUser,
  AdminUserPage,
  EnterpriseQuota,
  QuotaBody,
  Tier,
  TierBody,
} from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";

export const adminStatsQuery = () =>
  queryOptions({ queryKey: ["admin", "stats"], queryFn: () => api.request<AdminStats>("/admin/stats") });

export const adminUsersQuery = (page: number, search: string) =>
  queryOptions({
    queryKey: ["admin", "users", page, search],
    queryFn: () =>
      api.request<AdminUserPage>("/admin/users", { query: { page, items_per_page: 10, search: search || undefined } }),
    placeholderData: (previous) => previous,
  });

export const allUsersQuery = () =>
  queryOptions({ queryKey: ["admin", "all-users"], queryFn: () => api.request<AdminUser[]>("/users") });
export const tiersQuery = () =>
  queryOptions({ queryKey: ["admin", "tiers"], queryFn: () => api.request<Tier[]>("/admin/tiers") });

export const assignTier = (userId: string, tierId: string) =>
  api.request<AdminUser>(`/admin/users/${userId}/assign-tier-with-defaults`, {
    method: "POST",
    body: { tier_id: tierId },
  });
export const removeTier = (userId: string) =>
  api.request<AdminUser>(`/admin/users/${userId}/tier`, { method: "DELETE" });
export const deactivateUser = (userId: string) => api.request<AdminUser>(`/admin/user/${userId}`, { method: "DELETE" });
export const deleteUser = (userId: string) =>
  api.request(`/admin/user/${userId}`, { method: "DELETE", query: { permanent: true } });
export const reactivateUser = (userId: string) =>
  api.request<AdminUser>(`/admin/user/${userId}/reactivate`, { method: "POST" });

export const createTier = (body: TierBody) => api.request<Tier>("/admin/tiers", { method: "POST", body });
export const updateTier = (id: string, body: TierBody) =>
  api.request<Tier>(`/admin/tiers/${id}`, { method: "PATCH", body });
export const deleteTier = (id: string) => api.request(`/admin/tiers/${id}`, { method: "DELETE" });

export const quotaQuery = (userId: string) =>
  queryOptions({
    queryKey: ["admin", "quota", userId],
    queryFn: async () => {
      try {
        return await api.request<EnterpriseQuota>(`/admin/enterprise-quotas/${userId}`);
      } catch (error) {
        // No quota yet is a normal state, not a failure.
        if (error instanceof Error && "status" in error && error.status === 404) return null;
        throw error;
      }
    },
    enabled: Boolean(userId),
  });
export const saveQuota = (userId: string, body: QuotaBody) =>
  api.request<EnterpriseQuota>(`/admin/enterprise-quotas/${userId}`, { method: "PATCH", body });
export const deleteQuota = (userId: string) => api.request(`/admin/enterprise-quotas/${userId}`, { method: "DELETE" });
