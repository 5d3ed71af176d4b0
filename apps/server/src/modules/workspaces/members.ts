import {
  ERROR_TEXTS,
  INVITATION_TTL_SECONDS,
  type InviteBody,
  type WorkspaceRole,
  type WorkspaceUsersResponse,
} from "@parley/contract";
import { and, asc, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError, notFound } from "../../lib/app-error.ts";
import { users } from "../users/schema.ts";
import { findUserByEmail } from "../users/service.ts";
import { type WorkspaceRow, workspaceInvitations, workspaceMembers, workspaces } from "./schema.ts";

export async function listWorkspaceUsers(
  db: Executor,
  workspaceId: string,
  now: Date,
): Promise<WorkspaceUsersResponse> {
  const members = await db
    .select({ user: users, role: workspaceMembers.role, joinedAt: workspaceMembers.createdAt })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(asc(workspaceMembers.createdAt));
  const invitations = await db
    .select()
    .from(workspaceInvitations)
    .where(
      and(
        eq(workspaceInvitations.workspaceId, workspaceId),
        isNull(workspaceInvitations.acceptedAt),
        gt(workspaceInvitations.expiresAt, now),
      ),
    )
    .orderBy(asc(workspaceInvitations.createdAt));
  return {
    data: members.map((m) => ({
      id: m.user.id,
      name: m.user.name,
      email: m.user.email,
      username: m.user.username,
      role: m.role,
      joined_at: m.joinedAt.toISOString(),
    })),
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      invited_at: i.createdAt.toISOString(),
      expires_at: i.expiresAt.toISOString(),
    })),
  };
}

async function ownerCount(db: Executor, workspaceId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, "owner")));
  return row?.n ?? 0;
}

async function memberRole(db: Executor, workspaceId: string, userId: string): Promise<WorkspaceRole> {
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  if (!row) throw notFound("User is not a member of this workspace.");
  return row.role;
}

/** A workspace always keeps an owner: demoting or removing the last one is refused. */
export async function changeRole(db: Executor, workspaceId: string, userId: string, role: WorkspaceRole) {
  await db.transaction(async (tx) => {
    const current = await memberRole(tx, workspaceId, userId);
    if (current === "owner" && role !== "owner" && (await ownerCount(tx, workspaceId)) <= 1) {
      throw new AppError("conflict", ERROR_TEXTS.lastOwner);
    }
    await tx
      .update(workspaceMembers)
      .set({ role })
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  });
}

export async function removeMember(db: Executor, workspaceId: string, userId: string) {
  await db.transaction(async (tx) => {
    const current = await memberRole(tx, workspaceId, userId);
    if (current === "owner" && (await ownerCount(tx, workspaceId)) <= 1) {
      throw new AppError("conflict", ERROR_TEXTS.lastOwner);
    }
    await tx
      .delete(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
    // Tokens minted later fall back to another membership (see workspaceForToken).
    await tx
      .update(users)
      .set({ currentWorkspaceId: null })
      .where(and(eq(users.id, userId), eq(users.currentWorkspaceId, workspaceId)));
  });
}

/**
 * Records an invitation (replacing a pending one for the same email) and emails the invitee.
 * It is accepted the next time that address signs in, by any method.
 */
export async function inviteToWorkspace(
  ctx: AppContext,
  input: { workspace: WorkspaceRow; inviterName: string; inviterId: string; body: InviteBody },
) {
  const { db } = ctx;
  const { workspace, body } = input;
  const existing = await findUserByEmail(db, body.email);
  if (existing) {
    const [member] = await db
      .select({ userId: workspaceMembers.userId })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.userId, existing.id)));
    if (member) throw new AppError("conflict", ERROR_TEXTS.alreadyMember);
  }
  const now = ctx.now();
  const invitation = await db.transaction(async (tx) => {
    await tx
      .delete(workspaceInvitations)
      .where(
        and(
          eq(workspaceInvitations.workspaceId, workspace.id),
          sql`lower(${workspaceInvitations.email}) = ${body.email}`,
          isNull(workspaceInvitations.acceptedAt),
        ),
      );
    const [row] = await tx
      .insert(workspaceInvitations)
      .values({
        workspaceId: workspace.id,
        email: body.email,
        role: body.role,
        invitedBy: input.inviterId,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_SECONDS * 1000),
      })
      .returning();
    if (!row) throw new Error("insert into workspace_invitations returned no row");
    return row;
  });
  const link = `${ctx.config.publicUrl}/auth/login?invited=1&email=${encodeURIComponent(body.email)}`;
  await ctx.mailer.send({
    to: body.email,
    subject: `${input.inviterName} invited you to ${workspace.name} on Parley`,
    text: [
      `${input.inviterName} invited you to join the workspace "${workspace.name}" on Parley as ${body.role === "owner" ? "an owner" : "a member"}.`,
      "",
      `Sign in to accept — with a password, a magic link or single sign-on, using this email address:`,
      link,
      "",
      `The invitation is valid for ${Math.round(INVITATION_TTL_SECONDS / 86400)} days.`,
    ].join("\n"),
  });
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    invited_at: invitation.createdAt.toISOString(),
    expires_at: invitation.expiresAt.toISOString(),
  };
}

export async function revokeInvitation(db: Executor, workspaceId: string, invitationId: string) {
  const deleted = await db
    .delete(workspaceInvitations)
    .where(
      and(
        eq(workspaceInvitations.id, invitationId),
        eq(workspaceInvitations.workspaceId, workspaceId),
        isNull(workspaceInvitations.acceptedAt),
      ),
    )
    .returning({ id: workspaceInvitations.id });
  if (deleted.length === 0) throw notFound("Invitation not found.");
}

export async function updateWorkspaceRow(
  db: Executor,
  workspaceId: string,
  patch: { name?: string | undefined; billingEmail?: string | null | undefined; concurrencyLimit?: number | undefined },
  now: Date,
) {
  const [row] = await db
    .update(workspaces)
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.billingEmail !== undefined ? { billingEmail: patch.billingEmail } : {}),
      ...(patch.concurrencyLimit !== undefined ? { concurrencyLimit: patch.concurrencyLimit } : {}),
      updatedAt: now,
    })
    .where(eq(workspaces.id, workspaceId))
    .returning();
  if (!row) throw notFound("Workspace not found.");
  return row;
}
