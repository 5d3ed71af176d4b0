import { DEFAULT_WORKSPACE_CONCURRENCY_LIMIT, type Workspace, type WorkspaceRole } from "@parley/contract";
import { and, asc, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Principal } from "../../plugins/authenticate.ts";
import { users } from "../users/schema.ts";
import { type WorkspaceRow, workspaceInvitations, workspaceMembers, workspaces } from "./schema.ts";

export interface Membership {
  workspace: WorkspaceRow;
  role: WorkspaceRole;
}

export async function createWorkspace(
  db: Executor,
  input: { name: string; billingEmail?: string | null | undefined; ownerId: string; concurrencyLimit?: number },
): Promise<WorkspaceRow> {
  const [row] = await db
    .insert(workspaces)
    .values({
      name: input.name,
      billingEmail: input.billingEmail ?? null,
      concurrencyLimit: input.concurrencyLimit ?? DEFAULT_WORKSPACE_CONCURRENCY_LIMIT,
      createdBy: input.ownerId,
    })
    .returning();
  if (!row) throw new Error("insert into workspaces returned no row");
  await db.insert(workspaceMembers).values({ workspaceId: row.id, userId: input.ownerId, role: "owner" });
  return row;
}

/** Every new account gets a personal workspace it owns (spec §9: owner after magic-link signup). */
export function createPersonalWorkspace(db: Executor, user: { id: string; name: string; email: string }) {
  const first = user.name.trim().split(/\s+/)[0] || user.email.split("@")[0] || "My";
  return createWorkspace(db, { name: `${first}'s workspace`, billingEmail: user.email, ownerId: user.id });
}

export async function listMemberships(db: Executor, userId: string): Promise<Membership[]> {
  const rows = await db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(eq(workspaceMembers.userId, userId))
    .orderBy(asc(workspaceMembers.createdAt), asc(workspaces.name));
  return rows;
}

export async function findMembership(
  db: Executor,
  userId: string,
  workspaceId: string,
): Promise<Membership | undefined> {
  const [row] = await db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.workspaceId, workspaceId)));
  return row;
}

/**
 * The workspace a freshly minted token should carry: the one the user last switched to if
 * still a member, else the earliest membership. Null for a user in no workspace.
 */
export async function workspaceForToken(db: Executor, userId: string): Promise<string | null> {
  const [user] = await db.select({ current: users.currentWorkspaceId }).from(users).where(eq(users.id, userId));
  if (user?.current && (await findMembership(db, userId, user.current))) return user.current;
  const [first] = await listMemberships(db, userId);
  return first?.workspace.id ?? null;
}

/**
 * The tenant check every workspace-owned route goes through: the caller must be a member of
 * the workspace in their token. A workspace they do not belong to is indistinguishable from
 * one that does not exist (404).
 */
export async function requireWorkspace(db: Executor, principal: Principal, workspaceId = principal.workspaceId) {
  if (!workspaceId) throw new AppError("not_found", "No workspace selected.");
  const membership = await findMembership(db, principal.userId, workspaceId);
  if (!membership) throw new AppError("not_found", "Workspace not found.");
  return membership;
}

export async function memberCount(db: Executor, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId));
  return row?.n ?? 0;
}

export function toWorkspace(m: Membership, currentId: string | null): Workspace {
  return {
    id: m.workspace.id,
    name: m.workspace.name,
    role: m.role,
    is_current: m.workspace.id === currentId,
    concurrency_limit: m.workspace.concurrencyLimit,
    billing_email: m.workspace.billingEmail,
    created_at: m.workspace.createdAt.toISOString(),
  };
}

/** Turns the pending, unexpired invitations for an email into memberships (run at every sign-in). */
export async function acceptPendingInvitations(db: Executor, user: { id: string; email: string }, now: Date) {
  const pending = await db
    .select()
    .from(workspaceInvitations)
    .where(
      and(
        sql`lower(${workspaceInvitations.email}) = ${user.email.toLowerCase()}`,
        isNull(workspaceInvitations.acceptedAt),
        gt(workspaceInvitations.expiresAt, now),
      ),
    );
  for (const invitation of pending) {
    await db
      .insert(workspaceMembers)
      .values({ workspaceId: invitation.workspaceId, userId: user.id, role: invitation.role })
      .onConflictDoNothing();
    await db.update(workspaceInvitations).set({ acceptedAt: now }).where(eq(workspaceInvitations.id, invitation.id));
  }
  return pending.length;
}
