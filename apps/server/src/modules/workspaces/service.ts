import { DEFAULT_WORKSPACE_CONCURRENCY_LIMIT, ERROR_TEXTS, type Workspace, type WorkspaceRole } from "@parley/contract";
import { and, asc, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import type { Principal } from "../../plugins/authenticate.ts";
import { effectiveLimits } from "../users/limits.ts";
import { findUserById, lockUser } from "../users/service.ts";
import { type InvitationRow, type WorkspaceRow, workspaceInvitations, workspaceMembers, workspaces } from "./schema.ts";

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

/**
 * Creates a workspace the user owns, within their plan: the count of owned workspaces and the
 * concurrency left are read and the workspace inserted in one transaction that holds the user's
 * row locked, so parallel requests cannot each see room for one more.
 */
export async function createOwnedWorkspace(
  db: Database,
  userId: string,
  body: { name: string; billing_email?: string | null | undefined },
): Promise<WorkspaceRow> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    const limits = await effectiveLimits(tx, userId);
    let concurrencyLimit = DEFAULT_WORKSPACE_CONCURRENCY_LIMIT;
    if (limits) {
      if ((await ownedWorkspaceCount(tx, userId)) >= limits.maxWorkspaces) {
        throw new AppError("forbidden", ERROR_TEXTS.workspaceLimit);
      }
      const remaining = limits.concurrentCalls - (await allocatedConcurrency(tx, userId));
      concurrencyLimit = Math.max(0, Math.min(concurrencyLimit, remaining));
    }
    return createWorkspace(tx, {
      name: body.name,
      billingEmail: body.billing_email ?? user?.email ?? null,
      ownerId: userId,
      concurrencyLimit,
    });
  });
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
    .where(scoped(workspaceMembers, { workspaceId }).where(eq(workspaceMembers.userId, userId)));
  return row;
}

/**
 * The workspace a freshly minted token should carry: the one the user last switched to if
 * still a member, else the earliest membership. Null for a user in no workspace.
 */
export async function workspaceForToken(db: Executor, userId: string): Promise<string | null> {
  const current = (await findUserById(db, userId))?.currentWorkspaceId;
  if (current && (await findMembership(db, userId, current))) return current;
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

/** How many calls the workspace may run at once. */
export async function concurrencyLimitOf(db: Executor, tenant: TenantScope): Promise<number> {
  const [row] = await db
    .select({ limit: workspaces.concurrencyLimit })
    .from(workspaces)
    .where(eq(workspaces.id, tenant.workspaceId));
  if (!row) throw new AppError("not_found", "Workspace not found.");
  return row.limit;
}

export async function memberCount(db: Executor, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(scoped(workspaceMembers, { workspaceId }).where());
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

/**
 * Turns the pending, unexpired invitations for an email into memberships. Run only when the
 * caller proved they receive mail at that address; returns the joined workspaces, oldest first.
 */
export async function acceptPendingInvitations(
  db: Executor,
  user: { id: string; email: string },
  now: Date,
): Promise<string[]> {
  const pending = await db
    .select()
    .from(workspaceInvitations)
    .where(
      and(
        sql`lower(${workspaceInvitations.email}) = ${user.email.toLowerCase()}`,
        isNull(workspaceInvitations.acceptedAt),
        gt(workspaceInvitations.expiresAt, now),
      ),
    )
    .orderBy(asc(workspaceInvitations.createdAt));
  for (const invitation of pending) await joinByInvitation(db, invitation, user.id, now);
  return pending.map((i) => i.workspaceId);
}

/** Makes the user a member with the invitation's role (an existing membership stays) and marks it used. */
export async function joinByInvitation(db: Executor, invitation: InvitationRow, userId: string, now: Date) {
  await db
    .insert(workspaceMembers)
    .values({ workspaceId: invitation.workspaceId, userId, role: invitation.role })
    .onConflictDoNothing();
  await db.update(workspaceInvitations).set({ acceptedAt: now }).where(eq(workspaceInvitations.id, invitation.id));
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

export async function workspaceCount(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(workspaces);
  return row?.n ?? 0;
}

/** The workspaces a user owns. */
export async function ownedWorkspaceIds(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ workspaceId: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, "owner")));
  return rows.map((r) => r.workspaceId);
}

/**
 * The owner whose plan a workspace's calls count against (spec §3 limits are a user's): its creator
 * while still an owner, else its longest-standing owner; null for a workspace without owners.
 */
export async function planOwnerOf(db: Executor, workspaceId: string): Promise<string | null> {
  const owners = await db
    .select({ userId: workspaceMembers.userId, createdBy: workspaces.createdBy })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, "owner")))
    .orderBy(asc(workspaceMembers.createdAt));
  return (owners.find((o) => o.userId === o.createdBy) ?? owners[0])?.userId ?? null;
}

/** The workspaces a user belongs to. */
export async function workspaceIdsOf(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ workspaceId: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.userId, userId));
  return rows.map((r) => r.workspaceId);
}

/**
 * After a member is gone for good: a workspace left with nobody is deleted, and one left without
 * an owner makes its longest-standing member the owner.
 */
export async function settleWorkspacesAfterLeaving(db: Executor, workspaceIds: string[]) {
  for (const workspaceId of workspaceIds) {
    const [left] = await db
      .select({ n: count() })
      .from(workspaceMembers)
      .where(scoped(workspaceMembers, { workspaceId }).where());
    if ((left?.n ?? 0) === 0) {
      await db.delete(workspaces).where(eq(workspaces.id, workspaceId));
      continue;
    }
    const [owner] = await db
      .select({ userId: workspaceMembers.userId })
      .from(workspaceMembers)
      .where(scoped(workspaceMembers, { workspaceId }).where(eq(workspaceMembers.role, "owner")));
    if (owner) continue;
    const [first] = await db
      .select({ userId: workspaceMembers.userId })
      .from(workspaceMembers)
      .where(scoped(workspaceMembers, { workspaceId }).where())
      .orderBy(workspaceMembers.createdAt)
      .limit(1);
    if (first) {
      await db
        .update(workspaceMembers)
        .set({ role: "owner" })
        .where(scoped(workspaceMembers, { workspaceId }).where(eq(workspaceMembers.userId, first.userId)));
    }
  }
}
