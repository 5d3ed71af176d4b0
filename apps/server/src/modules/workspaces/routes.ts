import {
  ChangeRoleBody,
  CreateWorkspaceBody,
  ERROR_TEXTS,
  InviteBody,
  MessageResponse,
  TokenResponse,
  UpdateWorkspaceBody,
  Workspace,
  WorkspaceInvitation,
  WorkspaceUsersResponse,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, notFound } from "../../lib/app-error.ts";
import { auditRequest } from "../../lib/audit-log-across-workspaces.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { requireOwner as requireOwnerRole } from "../../lib/tenant-scope.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { effectiveLimits } from "../users/limits.ts";
import { findUserById, setCurrentWorkspace } from "../users/service.ts";
import { invitationRoutes } from "./invitation-routes.ts";
import {
  changeRole,
  inviteToWorkspace,
  listWorkspaceUsers,
  removeMember,
  revokeInvitation,
  updateWorkspaceRow,
} from "./members.ts";
import {
  allocatedConcurrency,
  createOwnedWorkspace,
  listMemberships,
  memberCount,
  requireWorkspace,
  toWorkspace,
} from "./service.ts";

const WorkspaceParams = z.object({ id: z.uuid() });
const MemberParams = WorkspaceParams.extend({ userId: z.uuid() });
const InvitationParams = WorkspaceParams.extend({ invitationId: z.uuid() });

/** The audit entry of a change to one member of a workspace. */
const memberEntry = (params: { id: string; userId: string }, details: Record<string, string | boolean>) => ({
  workspaceId: params.id,
  target: { type: "user", id: params.userId },
  details,
});

export async function workspaceRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  // People only: API keys act inside one workspace and cannot list, create or manage workspaces.
  const route = routeOptions({ onRequest: app.authenticate }, ["workspaces"]);
  await app.register(invitationRoutes);

  /** Members may read; only owners manage users and settings. Non-members get 404. */
  async function requireOwner(request: Parameters<typeof principalOf>[0], workspaceId: string) {
    const membership = await requireWorkspace(db, principalOf(request), workspaceId);
    requireOwnerRole(membership);
    return membership;
  }

  r.get("/workspaces", route("Your workspaces", { response: { 200: z.array(Workspace) } }), async (request) => {
    const principal = principalOf(request);
    const memberships = await listMemberships(db, principal.userId);
    return Promise.all(
      memberships.map(async (m) => ({
        ...toWorkspace(m, principal.workspaceId),
        member_count: await memberCount(db, m.workspace.id),
      })),
    );
  });

  r.post(
    "/workspaces",
    route("Create a workspace you own", { body: CreateWorkspaceBody, response: { 201: Workspace } }),
    async (request, reply) => {
      const principal = principalOf(request);
      const workspace = await createOwnedWorkspace(db, principal.userId, request.body);
      return reply
        .code(201)
        .send({ ...toWorkspace({ workspace, role: "owner" }, principal.workspaceId), member_count: 1 });
    },
  );

  r.patch(
    "/workspaces/:id",
    route("Rename, set billing email or concurrency limit (owners)", {
      params: WorkspaceParams,
      body: UpdateWorkspaceBody,
      response: { 200: Workspace },
    }),
    async (request) => {
      const principal = principalOf(request);
      const { id } = request.params;
      const membership = await requireOwner(request, id);
      const limit = request.body.concurrency_limit;
      if (limit !== undefined && limit > membership.workspace.concurrencyLimit) {
        // Raising a limit must fit the caller's quota across every workspace they own.
        const limits = await effectiveLimits(db, principal.userId);
        if (limits && (await allocatedConcurrency(db, principal.userId, id)) + limit > limits.concurrentCalls) {
          throw new AppError("validation", ERROR_TEXTS.concurrencyOverQuota);
        }
      }
      const workspace = await updateWorkspaceRow(
        db,
        id,
        { name: request.body.name, billingEmail: request.body.billing_email, concurrencyLimit: limit },
        app.ctx.now(),
      );
      return {
        ...toWorkspace({ workspace, role: membership.role }, principal.workspaceId),
        member_count: await memberCount(db, id),
      };
    },
  );

  r.get(
    "/workspaces/:id/users",
    route("Members and pending invitations", { params: WorkspaceParams, response: { 200: WorkspaceUsersResponse } }),
    async (request) => {
      await requireWorkspace(db, principalOf(request), request.params.id);
      return listWorkspaceUsers(db, request.params.id, app.ctx.now());
    },
  );

  r.post(
    "/workspaces/:id/invite",
    route("Invite someone by email (owners)", {
      params: WorkspaceParams,
      body: InviteBody,
      response: { 201: WorkspaceInvitation },
    }),
    async (request, reply) => {
      const principal = principalOf(request);
      const membership = await requireOwner(request, request.params.id);
      const inviter = await findUserById(db, principal.userId);
      const invitation = await inviteToWorkspace(app.ctx, {
        workspace: membership.workspace,
        inviterId: principal.userId,
        inviterName: inviter?.name ?? principal.username,
        body: request.body,
      });
      return reply.code(201).send(invitation);
    },
  );

  r.delete(
    "/workspaces/:id/invitations/:invitationId",
    route("Revoke a pending invitation (owners)", { params: InvitationParams, response: { 200: MessageResponse } }),
    async (request) => {
      await requireOwner(request, request.params.id);
      await revokeInvitation(db, request.params.id, request.params.invitationId);
      return { message: "Invitation revoked." };
    },
  );

  r.patch(
    "/workspaces/:id/users/:userId",
    route("Change a member's role (owners)", {
      params: MemberParams,
      body: ChangeRoleBody,
      response: { 200: MessageResponse },
    }),
    async (request) => {
      await requireOwner(request, request.params.id);
      await changeRole(db, request.params.id, request.params.userId, request.body.role);
      await auditRequest(request, "member.role_changed", memberEntry(request.params, { role: request.body.role }));
      return { message: "Role updated." };
    },
  );

  r.delete(
    "/workspaces/:id/users/:userId",
    route("Remove a member (owners), or leave (yourself)", {
      params: MemberParams,
      response: { 200: MessageResponse },
    }),
    async (request) => {
      const principal = principalOf(request);
      const leaving = request.params.userId === principal.userId;
      if (leaving) await requireWorkspace(db, principal, request.params.id);
      else await requireOwner(request, request.params.id);
      await removeMember(db, request.params.id, request.params.userId);
      await auditRequest(request, "member.removed", memberEntry(request.params, { left: leaving }));
      return { message: leaving ? "You left the workspace." : "Member removed." };
    },
  );

  r.post(
    "/switch-workspace/:id",
    route("Get an access token for another of your workspaces", {
      params: WorkspaceParams,
      response: { 200: TokenResponse },
    }),
    async (request) => {
      const principal = principalOf(request);
      await requireWorkspace(db, principal, request.params.id);
      const user = await findUserById(db, principal.userId);
      if (!user) throw notFound();
      await setCurrentWorkspace(db, user.id, request.params.id);
      const accessToken = await app.ctx.accessTokens.forUser(user, request.params.id, principal.sessionId);
      return { access_token: accessToken, token_type: "bearer" as const };
    },
  );
}
