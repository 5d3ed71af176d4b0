import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { enterpriseQuotas, tiers, users } from "./schema.ts";

export interface EffectiveLimits {
  maxAssistants: number;
  minutesPerMonth: number;
  concurrentCalls: number;
  maxWorkspaces: number;
  source: "enterprise" | "tier";
}

export type QuotaRow = typeof enterpriseQuotas.$inferSelect;
export type QuotaLimits = Omit<QuotaRow, "userId">;

/**
 * The limits that apply to a user: their override (enterprise quota, set by an admin by hand) when
 * they have one, else their tier's as the tier stands now, else none (undefined: a self-hosted
 * install without tiers is unlimited). Tier limits are never copied to the user, so a tier edit
 * reaches every user on it and removing the tier removes its limits.
 */
export async function effectiveLimits(db: Executor, userId: string): Promise<EffectiveLimits | undefined> {
  const quota = await findQuota(db, userId);
  if (quota) return { ...quota, source: "enterprise" };
  const [row] = await db
    .select({ tier: tiers })
    .from(users)
    .innerJoin(tiers, eq(tiers.id, users.tierId))
    .where(eq(users.id, userId));
  return row ? { ...row.tier, source: "tier" } : undefined;
}

/** The name of the user's tier, or null when they have none. */
export async function tierNameOf(db: Executor, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: tiers.name })
    .from(users)
    .innerJoin(tiers, eq(tiers.id, users.tierId))
    .where(eq(users.id, userId));
  return row?.name ?? null;
}

export async function findQuota(db: Executor, userId: string): Promise<QuotaRow | undefined> {
  const [row] = await db.select().from(enterpriseQuotas).where(eq(enterpriseQuotas.userId, userId));
  return row;
}

export async function saveQuota(db: Executor, userId: string, limits: QuotaLimits): Promise<void> {
  await db
    .insert(enterpriseQuotas)
    .values({ userId, ...limits })
    .onConflictDoUpdate({ target: enterpriseQuotas.userId, set: limits });
}

export async function deleteQuota(db: Executor, userId: string): Promise<void> {
  await db.delete(enterpriseQuotas).where(eq(enterpriseQuotas.userId, userId));
}
