import type { AdminUser, AdminUserPage } from "@parley/contract";
import { eq, ilike, inArray, or } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { newestFirst, pagedRows, pageOf, pageWindow } from "../../lib/paging.ts";
import { enterpriseQuotas, tiers, type UserRow, users } from "./schema.ts";
import { toSessionUser } from "./service.ts";

/** Users in the shape superusers see, with tier names and enterprise flags filled in one query each. */
export async function toAdminUsers(db: Executor, rows: UserRow[]): Promise<AdminUser[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const tierIds = [...new Set(rows.map((r) => r.tierId).filter((id): id is string => id !== null))];
  const quotas = await db
    .select({ userId: enterpriseQuotas.userId })
    .from(enterpriseQuotas)
    .where(inArray(enterpriseQuotas.userId, ids));
  const tierRows = tierIds.length
    ? await db.select({ id: tiers.id, name: tiers.name }).from(tiers).where(inArray(tiers.id, tierIds))
    : [];
  const enterprise = new Set(quotas.map((q) => q.userId));
  const tierNames = new Map(tierRows.map((t) => [t.id, t.name]));
  return rows.map((row) => ({
    ...toSessionUser(row, enterprise.has(row.id)),
    is_active: row.isActive,
    tier_name: row.tierId ? (tierNames.get(row.tierId) ?? null) : null,
    created_at: row.createdAt.toISOString(),
  }));
}

export async function toAdminUser(db: Executor, row: UserRow): Promise<AdminUser> {
  const [user] = await toAdminUsers(db, [row]);
  if (!user) throw new Error("toAdminUsers dropped a row");
  return user;
}

export async function reloadAdminUser(db: Executor, id: string): Promise<AdminUser | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ? toAdminUser(db, row) : undefined;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listUsersPage(
  db: Executor,
  query: { page: number; items_per_page: number; search?: string | undefined },
): Promise<AdminUserPage> {
  const term = query.search ? `%${escapeLike(query.search)}%` : undefined;
  const where = term ? or(ilike(users.name, term), ilike(users.email, term), ilike(users.username, term)) : undefined;
  const { rows, total } = await pagedRows(db, users, where, newestFirst(users), pageWindow(query));
  return pageOf(await toAdminUsers(db, rows), total, query);
}
