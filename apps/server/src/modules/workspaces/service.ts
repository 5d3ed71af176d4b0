import { DEFAULT_WORKSPACE_CONCURRENCY_LIMIT, ERROR_TEXTS, type Workspace } from "@parley/contract";
import { asc, count, eq, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { preparedFor, UNNAMED_STATEMENT } from "../../db/prepared.ts";
import { AppError } from "../../lib/app-error.ts";
import { BOUND_TENANT, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import type { Principal } from "../../plugins/authenticate.ts";
import { effectiveLimits } from "../users/limits.ts";
import { findUserById, lockUser } from "../users/service.ts";
import {
  allocatedConcurrency,
  listMemberships,
  type Membership,
  ownedWorkspaceCount,
  pendingInvitationsFor,
} from "./memberships-across-workspaces.ts";
import { type InvitationRow, type WorkspaceRow, workspaceInvitations, workspaceMembers, workspaces } from "./schema.ts";

// What a user's memberships span crosses workspaces; those queries live in their own file.
export {
  allocatedConcurrency,
  fitOwnedConcurrency,
  listMemberships,
  type Membership,
  ownedWorkspaceCount,
  ownedWorkspaceIds,
  workspaceIdsOf,
} from "./memberships-across-workspaces.ts";

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
  await db
    .insert(workspaceMembers)
    .values(scoped(workspaceMembers, { workspaceId: row.id }).values({ userId: input.ownerId, role: "owner" }));
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

/** Every new account gets a personal workspace it owns (spec §9: owner after magic-link signup). */
export function createPersonalWorkspace(db: Executor, user: { id: string; name: string; email: string }) {
  const first = user.name.trim().split(/\s+/)[0] || user.email.split("@")[0] || "My";
  return createWorkspace(db, { name: `${first}'s workspace`, billingEmail: user.email, ownerId: user.id });
}

// The tenant check of every workspace route: built once per database handle.
const membershipQuery = preparedFor((db) =>
  db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(scoped(workspaceMembers, BOUND_TENANT).where(eq(workspaceMembers.userId, sql.placeholder("userId"))))
    .prepare(UNNAMED_STATEMENT),
);

export async function findMembership(
  db: Executor,
  userId: string,
  workspaceId: string,
): Promise<Membership | undefined> {
  const [row] = await membershipQuery(db).execute({ workspaceId, userId });
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
 * caller proved they receive mail at that address; an account that does not own its address
 * (created from an identity provider's unverified email) joins nothing. Returns the joined
 * workspaces, oldest first.
 */
export async function acceptPendingInvitations(
  db: Executor,
  user: { id: string; email: string; emailVerified: boolean },
  now: Date,
): Promise<string[]> {
  if (!user.emailVerified) return [];
  const pending = await pendingInvitationsFor(db, user.email, now);
  for (const invitation of pending) await joinByInvitation(db, invitation, user.id, now);
  return pending.map((i) => i.workspaceId);
}

/** Makes the user a member with the invitation's role (an existing membership stays) and marks it used. */
export async function joinByInvitation(db: Executor, invitation: InvitationRow, userId: string, now: Date) {
  await db
    .insert(workspaceMembers)
    .values(scoped(workspaceMembers, invitation).values({ userId, role: invitation.role }))
    .onConflictDoNothing();
  await db
    .update(workspaceInvitations)
    .set({ acceptedAt: now })
    .where(scoped(workspaceInvitations, invitation).where(eq(workspaceInvitations.id, invitation.id)));
}

export async function workspaceCount(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(workspaces);
  return row?.n ?? 0;
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
    .where(scoped(workspaceMembers, { workspaceId }).where(eq(workspaceMembers.role, "owner")))
    .orderBy(asc(workspaceMembers.createdAt));
  return (owners.find((o) => o.userId === o.createdBy) ?? owners[0])?.userId ?? null;
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
