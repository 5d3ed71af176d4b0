import type {
  InviteBody,
  MyLimits,
  UpdateWorkspaceBody,
  Workspace,
  WorkspaceRole,
  WorkspaceUsersResponse,
} from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";

export const workspaceUsersQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: ["workspaces", workspaceId, "users"],
    queryFn: () => api.request<WorkspaceUsersResponse>(`/workspaces/${workspaceId}/users`),
  });

export const myLimitsQuery = () =>
  queryOptions({ queryKey: ["users", "me", "limits"], queryFn: () => api.request<MyLimits>("/users/me/limits") });

export const updateWorkspace = (id: string, body: UpdateWorkspaceBody) =>
  api.request<Workspace>(`/workspaces/${id}`, { method: "PATCH", body });
export const inviteUser = (id: string, body: InviteBody) =>
  api.request(`/workspaces/${id}/invite`, { method: "POST", body });
export const revokeInvitation = (id: string, invitationId: string) =>
  api.request(`/workspaces/${id}/invitations/${invitationId}`, { method: "DELETE" });
export const changeRole = (id: string, userId: string, role: WorkspaceRole) =>
  api.request(`/workspaces/${id}/users/${userId}`, { method: "PATCH", body: { role } });
export const removeMember = (id: string, userId: string) =>
  api.request(`/workspaces/${id}/users/${userId}`, { method: "DELETE" });
