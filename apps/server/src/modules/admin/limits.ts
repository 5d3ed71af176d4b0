import { and, count, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { users } from "../users/schema.ts";
import { workspaceMembers, workspaces } from "../workspaces/schema.ts";
import { enterpriseQuotas, tiers } from "./schema.ts";

export interface EffectiveLimits {
  maxAssistants: number;
  minutesPerMonth: number;
  concurrentCalls: number;
  maxWorkspaces: number;
  source: "enterprise" | "tier";
}

/**
 * The limits that apply to a user: their enterprise quota when they have one, else their tier's,
 * else none (undefined: a self-hosted install without tiers is unlimited).
 */
export async function effectiveLimits(db: Executor, userId: string): Promise<EffectiveLimits | undefined> {
  const [quota] = await db.select().from(enterpriseQuotas).where(eq(enterpriseQuotas.userId, userId));
  if (quota) return { ...quota, source: "enterprise" };
  const [row] = await db
    .select({ tier: tiers })
    .from(users)
    .innerJoin(tiers, eq(tiers.id, users.tierId))
    .where(eq(users.id, userId));
  return row ? { ...row.tier, source: "tier" } : undefined;
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
