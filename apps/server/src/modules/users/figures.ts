import { count, eq, gte } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { enterpriseQuotas, tiers, users } from "./schema.ts";

/** Account figures for the admin dashboard; `since` bounds the recent-signups count. */
export async function userFigures(db: Executor, since: Date) {
  const n = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;
  return {
    total_users: await n(db.select({ n: count() }).from(users)),
    active_users: await n(db.select({ n: count() }).from(users).where(eq(users.isActive, true))),
    superusers: await n(db.select({ n: count() }).from(users).where(eq(users.isSuperuser, true))),
    tiers: await n(db.select({ n: count() }).from(tiers)),
    enterprise_users: await n(db.select({ n: count() }).from(enterpriseQuotas)),
    signups_last_30_days: await n(db.select({ n: count() }).from(users).where(gte(users.createdAt, since))),
  };
}
