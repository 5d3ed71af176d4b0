import type { Tier, TierBody } from "@parley/contract";
import { asc, count, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { AppError, notFound } from "../../lib/app-error.ts";
import { forgetAuthState } from "./auth-state.ts";
import { tiers, users } from "./schema.ts";

type TierRow = typeof tiers.$inferSelect;

function toTier(row: TierRow, userCount: number): Tier {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    max_assistants: row.maxAssistants,
    minutes_per_month: row.minutesPerMonth,
    concurrent_calls: row.concurrentCalls,
    max_workspaces: row.maxWorkspaces,
    price: Number(row.price),
    user_count: userCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const columns = (body: TierBody) => ({
  name: body.name,
  description: body.description ?? null,
  maxAssistants: body.max_assistants,
  minutesPerMonth: body.minutes_per_month,
  concurrentCalls: body.concurrent_calls,
  maxWorkspaces: body.max_workspaces,
  price: body.price.toFixed(2),
});

async function assertNameFree(db: Executor, name: string, exceptId?: string) {
  const [row] = await db.select({ id: tiers.id }).from(tiers).where(sql`lower(${tiers.name}) = ${name.toLowerCase()}`);
  if (row && row.id !== exceptId) throw new AppError("conflict", "A tier with this name already exists.");
}

async function userCounts(db: Executor): Promise<Map<string, number>> {
  const rows = await db.select({ tierId: users.tierId, n: count() }).from(users).groupBy(users.tierId);
  return new Map(rows.filter((r) => r.tierId).map((r) => [r.tierId as string, r.n]));
}

export async function listTiers(db: Executor): Promise<Tier[]> {
  const counts = await userCounts(db);
  const rows = await db.select().from(tiers).orderBy(asc(tiers.price), asc(tiers.name));
  return rows.map((row) => toTier(row, counts.get(row.id) ?? 0));
}

export async function getTier(db: Executor, id: string): Promise<Tier> {
  const [row] = await db.select().from(tiers).where(eq(tiers.id, id));
  if (!row) throw notFound("Tier not found.");
  return toTier(row, (await userCounts(db)).get(id) ?? 0);
}

export async function createTier(db: Executor, body: TierBody): Promise<Tier> {
  await assertNameFree(db, body.name);
  const [row] = await db.insert(tiers).values(columns(body)).returning();
  if (!row) throw new Error("insert into tiers returned no row");
  return toTier(row, 0);
}

export async function updateTier(db: Executor, id: string, body: Partial<TierBody>, now: Date): Promise<Tier> {
  await getTier(db, id);
  if (body.name) await assertNameFree(db, body.name, id);
  const current = await getTier(db, id);
  const merged = { ...current, ...body } as TierBody;
  await db
    .update(tiers)
    .set({ ...columns(merged), updatedAt: now })
    .where(eq(tiers.id, id));
  return getTier(db, id);
}

/** Deleting a tier leaves its users without one, so without its limits (overrides, if any, stay). */
export async function deleteTier(db: Executor, id: string) {
  await getTier(db, id);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ tierId: null }).where(eq(users.tierId, id));
    forgetAuthState();
    await tx.delete(tiers).where(eq(tiers.id, id));
  });
}

/**
 * Gives the user the tier; its limits become theirs (the "defaults"). They are read from the tier
 * each time rather than copied, so later edits of the tier reach the user and removing the tier
 * takes them away. An override an admin set by hand (an enterprise quota) is an explicit decision
 * and stays: it keeps winning over the tier until it is removed on its own.
 */
export async function assignTierWithDefaults(db: Executor, userId: string, tierId: string, now: Date) {
  await db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
    if (!user) throw notFound("User not found.");
    const [tier] = await tx.select({ id: tiers.id }).from(tiers).where(eq(tiers.id, tierId));
    if (!tier) throw notFound("Tier not found.");
    await tx.update(users).set({ tierId, updatedAt: now }).where(eq(users.id, userId));
    forgetAuthState(userId);
  });
}

/** The users whose tier this is. */
export async function userIdsOnTier(db: Executor, tierId: string): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.tierId, tierId));
  return rows.map((r) => r.id);
}
