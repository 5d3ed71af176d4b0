import type { AdminStats } from "@parley/contract";
import { count, eq, gte } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { users } from "../users/schema.ts";
import { workspaces } from "../workspaces/schema.ts";
import { enterpriseQuotas, tiers } from "./schema.ts";

export async function adminStats(db: Executor, now: Date): Promise<AdminStats> {
  const since = new Date(now.getTime() - 30 * 24 * 3600 * 1000);
  const n = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;
  return {
    total_users: await n(db.select({ n: count() }).from(users)),
    active_users: await n(db.select({ n: count() }).from(users).where(eq(users.isActive, true))),
    superusers: await n(db.select({ n: count() }).from(users).where(eq(users.isSuperuser, true))),
    workspaces: await n(db.select({ n: count() }).from(workspaces)),
    tiers: await n(db.select({ n: count() }).from(tiers)),
    enterprise_users: await n(db.select({ n: count() }).from(enterpriseQuotas)),
    signups_last_30_days: await n(db.select({ n: count() }).from(users).where(gte(users.createdAt, since))),
  };
}
