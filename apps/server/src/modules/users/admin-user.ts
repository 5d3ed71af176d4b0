import type { AdminUser } from "@parley/contract";
import { eq, inArray } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { enterpriseQuotas, tiers } from "../admin/schema.ts";
import { type UserRow, users } from "./schema.ts";
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
