import {
  AuthProviders,
  type ChangePasswordBody,
  MyLimits,
  SessionUser,
  SsoProvider,
  type UpdateProfileBody,
} from "@parley/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { useAuth } from "../../../lib/auth-context.ts";
import { api } from "../../../lib/http-client.ts";

/** The signed-in user's own data: not a workspace's, so the keys start with "users", "me". */
export const profileKeys = {
  identities: ["users", "me", "sso-identities"] as const,
  providers: ["auth", "providers"] as const,
  limits: ["users", "me", "limits"] as const,
};

/** What the signed-in user may use and where it comes from (their plan, or an admin's override). */
export const useMyLimits = () =>
  useQuery({
    queryKey: profileKeys.limits,
    queryFn: async () => MyLimits.parse(await api.request("/users/me/limits")),
  });

/** The signed-in user lives in the session, not the query cache, so a change re-reads the session. */
export function useUpdateProfile() {
  const { restore } = useAuth();
  return useMutation({
    mutationFn: async (body: UpdateProfileBody) =>
      SessionUser.parse(await api.request("/users/me", { method: "PATCH", body })),
    onSuccess: () => restore(),
  });
}

/** Applies a new email address from the link sent to it. */
export function useConfirmEmail() {
  const { restore } = useAuth();
  return useMutation({
    mutationFn: async (token: string) =>
      SessionUser.parse(await api.request("/users/me/email/confirm", { method: "POST", body: { token } })),
    onSuccess: () => restore(),
  });
}

export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      api.request("/users/me/password", { method: "POST", body, credentials: true }),
  });

const LinkedIdentities = z.array(z.object({ provider: SsoProvider, email: z.string(), linked_at: z.string() }));

export const useLinkedIdentities = () =>
  useQuery({
    queryKey: profileKeys.identities,
    queryFn: async () => LinkedIdentities.parse(await api.request("/users/me/sso-identities")),
  });

/** Unlinks a provider; the answer is the list that remains, and the session user's sso_provider changes. */
export function useUnlinkIdentity() {
  const { restore } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (provider: SsoProvider) =>
      LinkedIdentities.parse(await api.request(`/users/me/sso-identities/${provider}`, { method: "DELETE" })),
    onSuccess: async (remaining) => {
      queryClient.setQueryData(profileKeys.identities, remaining);
      await restore();
    },
  });
}

export const useAuthProviders = () =>
  useQuery({
    queryKey: profileKeys.providers,
    queryFn: async () => AuthProviders.parse(await api.request("/auth/providers")),
  });

/** Starts linking a provider: the answer is the provider's page, which returns to the profile. */
export const useStartSsoLink = () =>
  useMutation({
    mutationFn: async (provider: SsoProvider) => {
      const { url } = z
        .object({ url: z.string() })
        .parse(await api.request(`/users/me/sso/${provider}/link`, { method: "POST" }));
      window.location.assign(url);
    },
  });
