import type { AdminUserPage } from "@parley/contract";
import { and, count, desc, eq, ilike, or } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError, notFound } from "../../lib/app-error.ts";
import { revokeAllSessions } from "../auth/session.ts";
import { toAdminUsers } from "../users/admin-user.ts";
import { users } from "../users/schema.ts";
import { workspaceMembers, workspaces } from "../workspaces/schema.ts";
import { enterpriseQuotas, tiers } from "./schema.ts";

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listUsersPage(
  db: Executor,
  query: { page: number; items_per_page: number; search?: string | undefined },
): Promise<AdminUserPage> {
  const term = query.search ? `%${escapeLike(query.search)}%` : undefined;
  const where = term ? or(ilike(users.name, term), ilike(users.email, term), ilike(users.username, term)) : undefined;
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(query.items_per_page)
    .offset((query.page - 1) * query.items_per_page);
  const totalCount = total?.n ?? 0;
  return {
    data: await toAdminUsers(db, rows),
    total_count: totalCount,
    page: query.page,
    items_per_page: query.items_per_page,
    pages: Math.ceil(totalCount / query.items_per_page),
  };
}

async function requireUser(db: Executor, id: string) {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  if (!user) throw notFound("User not found.");
  return user;
}

/** Gives the user the tier and resets their enterprise quota to the tier's limits. */
export async function assignTierWithDefaults(ctx: AppContext, userId: string, tierId: string) {
  await ctx.db.transaction(async (tx) => {
    await requireUser(tx, userId);
    const [tier] = await tx.select().from(tiers).where(eq(tiers.id, tierId));
    if (!tier) throw notFound("Tier not found.");
    const limits = {
      maxAssistants: tier.maxAssistants,
      minutesPerMonth: tier.minutesPerMonth,
      concurrentCalls: tier.concurrentCalls,
      maxWorkspaces: tier.maxWorkspaces,
      updatedAt: ctx.now(),
    };
    await tx.update(users).set({ tierId, updatedAt: ctx.now() }).where(eq(users.id, userId));
    await tx
      .insert(enterpriseQuotas)
      .values({ userId, ...limits })
      .onConflictDoUpdate({ target: enterpriseQuotas.userId, set: limits });
  });
}

/** Removes the tier only; an enterprise quota, if any, stays until removed on its own. */
export async function removeTier(ctx: AppContext, userId: string) {
  await requireUser(ctx.db, userId);
  await ctx.db.update(users).set({ tierId: null, updatedAt: ctx.now() }).where(eq(users.id, userId));
}

export async function setActive(ctx: AppContext, actorId: string, userId: string, active: boolean) {
  if (!active && actorId === userId) throw new AppError("conflict", "You cannot deactivate your own account.");
  await requireUser(ctx.db, userId);
  await ctx.db.update(users).set({ isActive: active, updatedAt: ctx.now() }).where(eq(users.id, userId));
  if (!active) await revokeAllSessions(ctx.db, userId, ctx.now());
}

/** Deletes the account for good; workspaces left with no member go with it. */
export async function deleteUserPermanently(ctx: AppContext, actorId: string, userId: string) {
  if (actorId === userId) throw new AppError("conflict", "You cannot delete your own account.");
  await ctx.db.transaction(async (tx) => {
    await requireUser(tx, userId);
    const memberships = await tx
      .select({ workspaceId: workspaceMembers.workspaceId })
      .from(workspaceMembers)
      .where(eq(workspaceMembers.userId, userId));
    await tx.delete(users).where(eq(users.id, userId));
    for (const { workspaceId } of memberships) {
      const [left] = await tx
        .select({ n: count() })
        .from(workspaceMembers)
        .where(eq(workspaceMembers.workspaceId, workspaceId));
      if ((left?.n ?? 0) === 0) await tx.delete(workspaces).where(eq(workspaces.id, workspaceId));
      else {
        // Keep an owner: promote the longest-standing member when the last owner was deleted.
        const [owner] = await tx
          .select({ userId: workspaceMembers.userId })
          .from(workspaceMembers)
          .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, "owner")));
        if (!owner) {
          const [first] = await tx
            .select({ userId: workspaceMembers.userId })
            .from(workspaceMembers)
            .where(eq(workspaceMembers.workspaceId, workspaceId))
            .orderBy(workspaceMembers.createdAt)
            .limit(1);
          if (first) {
            await tx
              .update(workspaceMembers)
              .set({ role: "owner" })
              .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, first.userId)));
          }
        }
      }
    }
  });
}
