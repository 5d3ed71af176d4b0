import {
  ERROR_TEXTS,
  INVITATION_TTL_SECONDS,
  type InviteBody,
  type WorkspaceRole,
  type WorkspaceUsersResponse,
} from "@parley/contract";
import { asc, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError, notFound } from "../../lib/app-error.ts";
import { hashToken, randomToken } from "../../lib/crypto.ts";
import { found, scoped } from "../../lib/tenant-scope.ts";
import { clearCurrentWorkspace, findUserByEmail, findUsersByIds } from "../users/service.ts";
import { type WorkspaceRow, workspaceInvitations, workspaceMembers, workspaces } from "./schema.ts";

/** The web page that accepts an invitation; it asks a signed-out visitor to sign in first. */
export const INVITATION_PAGE = "/enterprise-quota";

export async function listWorkspaceUsers(
  db: Executor,
  workspaceId: string,
  now: Date,
): Promise<WorkspaceUsersResponse> {
  const memberRows = await db
    .select()
    .from(workspaceMembers)
    .where(scoped(workspaceMembers, { workspaceId }).where())
    .orderBy(asc(workspaceMembers.createdAt));
  const accounts = new Map(
    (
      await findUsersByIds(
        db,
        memberRows.map((m) => m.userId),
      )
    ).map((u) => [u.id, u]),
  );
  const members = memberRows.flatMap((m) => {
    const user = accounts.get(m.userId);
    return user ? [{ user, role: m.role, joinedAt: m.createdAt }] : [];
  });
  const invitations = await db
    .select()
    .from(workspaceInvitations)
    .where(
      scoped(workspaceInvitations, { workspaceId }).where(
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
    .where(scoped(workspaceMembers, { workspaceId }).where(eq(workspaceMembers.role, "owner")));
  return row?.n ?? 0;
}

async function memberRole(db: Executor, workspaceId: string, userId: string): Promise<WorkspaceRole> {
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(scoped(workspaceMembers, { workspaceId }).where(eq(workspaceMembers.userId, userId)));
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
      .where(scoped(workspaceMembers, { workspaceId }).where(eq(workspaceMembers.userId, userId)));
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
      .where(scoped(workspaceMembers, { workspaceId }).where(eq(workspaceMembers.userId, userId)));
    // Tokens minted later fall back to another membership (see workspaceForToken).
    await clearCurrentWorkspace(tx, userId, workspaceId);
  });
}

/**
 * Records an invitation (replacing a pending one for the same email) and emails the invitee a
 * single-use link. Whoever opens the link and signs in (or signs up) joins; signing in in a way that
 * proves the address (a magic link, a provider that vouches for it) accepts it too. Only the hash
 * of the link's token is stored, and members listing invitations never see it.
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
      .where(scoped(workspaceMembers, { workspaceId: workspace.id }).where(eq(workspaceMembers.userId, existing.id)));
    if (member) throw new AppError("conflict", ERROR_TEXTS.alreadyMember);
  }
  const now = ctx.now();
  const token = randomToken();
  const invitation = await db.transaction(async (tx) => {
    await tx
      .delete(workspaceInvitations)
      .where(
        scoped(workspaceInvitations, { workspaceId: workspace.id }).where(
          sql`lower(${workspaceInvitations.email}) = ${body.email}`,
          isNull(workspaceInvitations.acceptedAt),
        ),
      );
    const [row] = await tx
      .insert(workspaceInvitations)
      .values(
        scoped(workspaceInvitations, { workspaceId: workspace.id }).values({
          tokenHash: hashToken(token),
          email: body.email,
          role: body.role,
          invitedBy: input.inviterId,
          expiresAt: new Date(now.getTime() + INVITATION_TTL_SECONDS * 1000),
        }),
      )
      .returning();
    if (!row) throw new Error("insert into workspace_invitations returned no row");
    return row;
  });
  const link = `${ctx.config.publicUrl}${INVITATION_PAGE}?invitation=${encodeURIComponent(token)}`;
  await ctx.mailer.send({
    to: body.email,
    subject: `${input.inviterName} invited you to ${workspace.name} on Parley`,
    text: [
      `${input.inviterName} invited you to join the workspace "${workspace.name}" on Parley as ${body.role === "owner" ? "an owner" : "a member"}.`,
      "",
      "Open this link to accept. If you have no Parley account yet, you can create one on the way:",
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
      scoped(workspaceInvitations, { workspaceId }).where(
        eq(workspaceInvitations.id, invitationId),
        isNull(workspaceInvitations.acceptedAt),
      ),
    )
    .returning({ id: workspaceInvitations.id });
  found(deleted[0], "Invitation not found.");
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
