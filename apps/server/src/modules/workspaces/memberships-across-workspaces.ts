// Queries that cross workspaces on purpose: they start from a user, not from a workspace. Which
// workspaces a user belongs to or owns (to choose a token's workspace, list them, count them against
// the user's plan and fit the plan's concurrency over them), and the invitations waiting for an email
// address the user has just proved (they are for workspaces the user is not a member of yet).

import type { WorkspaceRole } from "@parley/contract";
import { and, asc, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { type WorkspaceRow, workspaceInvitations, workspaceMembers, workspaces } from "./schema.ts";

export interface Membership {
  workspace: WorkspaceRow;
  role: WorkspaceRole;
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

/**
 * Shrinks the concurrency of the workspaces a user owns to fit a (lowered) plan: the oldest
 * workspaces keep theirs first, later ones get what is left.
 */
export async function fitOwnedConcurrency(db: Executor, userId: string, concurrentCalls: number) {
  const owned = await db
    .select({ id: workspaces.id, limit: workspaces.concurrencyLimit })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, "owner")))
    .orderBy(asc(workspaces.createdAt), asc(workspaces.id));
  let left = concurrentCalls;
  for (const workspace of owned) {
    const fitted = Math.max(0, Math.min(workspace.limit, left));
    left -= fitted;
    if (fitted !== workspace.limit) {
      await db.update(workspaces).set({ concurrencyLimit: fitted }).where(eq(workspaces.id, workspace.id));
    }
  }
}

/** Concurrency already handed out to the workspaces a user owns. */
export async function allocatedConcurrency(db: Executor, userId: string, exceptWorkspaceId?: string): Promise<number> {
  const owned = await db
    .select({ id: workspaces.id, limit: workspaces.concurrencyLimit })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, "owner")));
  return owned.filter((w) => w.id !== exceptWorkspaceId).reduce((total, w) => total + w.limit, 0);
}

export async function ownedWorkspaceCount(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, "owner")));
  return Number(row?.n ?? 0);
}

/** The workspaces a user owns. */
export async function ownedWorkspaceIds(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ workspaceId: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, "owner")));
  return rows.map((r) => r.workspaceId);
}

/** The workspaces a user belongs to. */
export async function workspaceIdsOf(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ workspaceId: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.userId, userId));
  return rows.map((r) => r.workspaceId);
}

/** The pending, unexpired invitations for an email address, in any workspace, oldest first. */
export async function pendingInvitationsFor(db: Executor, email: string, now: Date) {
  return db
    .select()
    .from(workspaceInvitations)
    .where(
      and(
        sql`lower(${workspaceInvitations.email}) = ${email.toLowerCase()}`,
        isNull(workspaceInvitations.acceptedAt),
        gt(workspaceInvitations.expiresAt, now),
      ),
    )
    .orderBy(asc(workspaceInvitations.createdAt));
}
