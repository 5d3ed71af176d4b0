import type { EnterpriseQuota, QuotaBody } from "@parley/contract";
import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { notFound } from "../../lib/app-error.ts";
import { users } from "../users/schema.ts";
import { allocatedConcurrency } from "./limits.ts";
import { enterpriseQuotas } from "./schema.ts";

async function requireUser(db: Executor, userId: string) {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound("User not found.");
}

export async function getQuota(db: Executor, userId: string): Promise<EnterpriseQuota> {
  await requireUser(db, userId);
  const [row] = await db.select().from(enterpriseQuotas).where(eq(enterpriseQuotas.userId, userId));
  if (!row) throw notFound("This user has no enterprise quota.");
  return {
    user_id: row.userId,
    max_assistants: row.maxAssistants,
    minutes_per_month: row.minutesPerMonth,
    concurrent_calls: row.concurrentCalls,
    max_workspaces: row.maxWorkspaces,
    allocated_concurrency: await allocatedConcurrency(db, userId),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function upsertQuota(db: Executor, userId: string, body: QuotaBody, now: Date): Promise<EnterpriseQuota> {
  await requireUser(db, userId);
  const values = {
    maxAssistants: body.max_assistants,
    minutesPerMonth: body.minutes_per_month,
    concurrentCalls: body.concurrent_calls,
    maxWorkspaces: body.max_workspaces,
    updatedAt: now,
  };
  await db
    .insert(enterpriseQuotas)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: enterpriseQuotas.userId, set: values });
  return getQuota(db, userId);
}

export async function deleteQuota(db: Executor, userId: string) {
  await getQuota(db, userId);
  await db.delete(enterpriseQuotas).where(eq(enterpriseQuotas.userId, userId));
}
