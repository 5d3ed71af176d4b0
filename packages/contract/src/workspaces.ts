import { z } from "zod";
import { Email } from "./common.ts";

export const WorkspaceRole = z.enum(["owner", "member"]);
export type WorkspaceRole = z.infer<typeof WorkspaceRole>;

/** Spec §3 "workspace" as GET /workspaces lists it for the caller. */
export const Workspace = z.object({
  id: z.string(),
  name: z.string(),
  role: WorkspaceRole,
  is_current: z.boolean(),
  concurrency_limit: z.number().int(),
  billing_email: z.string().nullable().optional(),
  member_count: z.number().int().optional(),
  created_at: z.string().optional(),
});
export type Workspace = z.infer<typeof Workspace>;

export const CreateWorkspaceBody = z.object({
  name: z.string().trim().min(1, "Workspace name is required").max(80),
  billing_email: Email.optional().or(z.literal("").transform(() => undefined)),
});
export type CreateWorkspaceBody = z.infer<typeof CreateWorkspaceBody>;

export const UpdateWorkspaceBody = z
  .object({
    name: z.string().trim().min(1, "Workspace name is required").max(80),
    billing_email: Email.nullable().or(z.literal("").transform(() => null)),
    concurrency_limit: z.number().int().min(0).max(10000),
  })
  .partial();
export type UpdateWorkspaceBody = z.infer<typeof UpdateWorkspaceBody>;

export const WorkspaceMember = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  username: z.string(),
  role: WorkspaceRole,
  joined_at: z.string(),
});
export type WorkspaceMember = z.infer<typeof WorkspaceMember>;

export const WorkspaceInvitation = z.object({
  id: z.string(),
  email: z.string(),
  role: WorkspaceRole,
  invited_at: z.string(),
  expires_at: z.string(),
});
export type WorkspaceInvitation = z.infer<typeof WorkspaceInvitation>;

/** GET /workspaces/{id}/users: members, plus invitations not yet accepted. */
export const WorkspaceUsersResponse = z.object({
  data: z.array(WorkspaceMember),
  invitations: z.array(WorkspaceInvitation),
});
export type WorkspaceUsersResponse = z.infer<typeof WorkspaceUsersResponse>;

export const InviteBody = z.object({ email: Email, role: WorkspaceRole.default("member") });
export type InviteBody = z.infer<typeof InviteBody>;

export const ChangeRoleBody = z.object({ role: WorkspaceRole });
