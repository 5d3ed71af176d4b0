import {
  type CreateWorkspaceBody,
  type InviteBody,
  MyLimits,
  type UpdateWorkspaceBody,
  Workspace,
  WorkspaceRole,
  WorkspaceUsersResponse,
} from "@parley/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { useAuth, useWorkspaceId } from "../../../lib/auth-context.ts";
import { api } from "../../../lib/http-client.ts";
import { accessTokenOf, tokenStorage } from "../../../lib/token-storage.ts";

/** The current workspace's members and invitations; the caller's limits are the user's, not a workspace's. */
export const workspaceKeys = {
  users: (workspaceId: string) => [workspaceId, "workspace-users"] as const,
  myLimits: ["users", "me", "limits"] as const,
};

export function useWorkspaceUsers() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: workspaceKeys.users(workspaceId),
    queryFn: async () => WorkspaceUsersResponse.parse(await api.request(`/workspaces/${workspaceId}/users`)),
  });
}

export const useMyLimits = () =>
  useQuery({
    queryKey: workspaceKeys.myLimits,
    queryFn: async () => MyLimits.parse(await api.request("/users/me/limits")),
  });

/** The workspace's name and concurrency show in the session's workspace list and in the caller's limits. */
export function useUpdateWorkspace() {
  const workspaceId = useWorkspaceId();
  const { restore } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateWorkspaceBody) => api.request(`/workspaces/${workspaceId}`, { method: "PATCH", body }),
    onSuccess: async () => {
      await restore();
      await queryClient.invalidateQueries({ queryKey: workspaceKeys.myLimits });
    },
  });
}

/** A change to the current workspace's members or invitations, after which that list is read again. */
function useMembersMutation<V>(request: (workspaceId: string, variables: V) => Promise<unknown>) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: V) => request(workspaceId, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.users(workspaceId) }),
  });
}

export const useInviteMember = () =>
  useMembersMutation((id, body: InviteBody) => api.request(`/workspaces/${id}/invite`, { method: "POST", body }));
export const useRevokeInvitation = () =>
  useMembersMutation((id, invitationId: string) =>
    api.request(`/workspaces/${id}/invitations/${invitationId}`, { method: "DELETE" }),
  );
export const useChangeRole = () =>
  useMembersMutation((id, { userId, role }: { userId: string; role: WorkspaceRole }) =>
    api.request(`/workspaces/${id}/users/${userId}`, { method: "PATCH", body: { role } }),
  );
export const useRemoveMember = () =>
  useMembersMutation((id, userId: string) => api.request(`/workspaces/${id}/users/${userId}`, { method: "DELETE" }));

/** Spec §5: the switch answer must carry a token. */
const NO_ACCESS_TOKEN = "Access token not found in response.";

/** POST /switch-workspace/{id}: the answer's token is for that workspace; the session is then read again. */
function useSwitchTo() {
  const { restore } = useAuth();
  return async (id: string) => {
    const token = accessTokenOf(await api.request(`/switch-workspace/${id}`, { method: "POST" }));
    if (!token) throw new Error(NO_ACCESS_TOKEN);
    tokenStorage.setAccessToken(token);
    tokenStorage.setLastWorkspace(id);
    await restore();
  };
}

export function useSwitchWorkspace() {
  const switchTo = useSwitchTo();
  return useMutation({
    mutationFn: switchTo,
    onError: (error) => console.error("Failed to switch workspace", error),
  });
}

/** Creates a workspace (spec §3 payload: name, billing_email), then switches to it. */
export function useCreateWorkspace() {
  const switchTo = useSwitchTo();
  return useMutation({
    mutationFn: async (body: CreateWorkspaceBody) => {
      const created = Workspace.parse(await api.request("/workspaces", { method: "POST", body }));
      await switchTo(created.id);
    },
    onError: (error) => console.error("Failed to create workspace", error),
  });
}

const InvitationPreview = z.object({
  status: z.enum(["valid", "used", "expired", "invalid"]),
  workspace_name: z.string().optional(),
  role: WorkspaceRole.optional(),
  email: z.string().optional(),
  inviter_name: z.string().optional(),
});

/** What an invitation link invites to, read once when its page opens. */
export const useInvitationPreview = (token: string) =>
  useQuery({
    queryKey: ["invitations", token],
    queryFn: async () =>
      InvitationPreview.parse(await api.request("/invitations/preview", { method: "POST", body: { token } })),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** Joins the invitation's workspace (the link is used up), then switches to it. */
export function useAcceptInvitation() {
  const switchTo = useSwitchTo();
  return useMutation({
    mutationFn: async (token: string) => {
      const joined = Workspace.parse(await api.request("/invitations/accept", { method: "POST", body: { token } }));
      await switchTo(joined.id);
      return joined;
    },
  });
}
