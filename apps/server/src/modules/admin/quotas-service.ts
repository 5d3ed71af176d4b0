import type { EnterpriseQuota, QuotaBody } from "@parley/contract";
import type { Executor } from "../../db/client.ts";
import { found } from "../../lib/tenant-scope.ts";
import { deleteQuota as deleteQuotaRow, effectiveLimits, findQuota, saveQuota } from "../users/limits.ts";
import { findUserById } from "../users/service.ts";
import { allocatedConcurrency, fitOwnedConcurrency } from "../workspaces/service.ts";

async function requireUser(db: Executor, userId: string) {
  found(await findUserById(db, userId), "User not found.");
}

export async function getQuota(db: Executor, userId: string): Promise<EnterpriseQuota> {
  await requireUser(db, userId);
  const row = found(await findQuota(db, userId), "This user has no enterprise quota.");
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

/**
 * Makes the workspaces a user owns fit the limits that now apply to them: a lowered concurrent-call
 * limit shrinks their workspaces' concurrency (workspaces beyond a lowered count stay, but no new
 * one can be created).
 */
export async function applyLimitsToWorkspaces(db: Executor, userId: string) {
  const limits = await effectiveLimits(db, userId);
  if (limits) await fitOwnedConcurrency(db, userId, limits.concurrentCalls);
}

export async function upsertQuota(db: Executor, userId: string, body: QuotaBody, now: Date): Promise<EnterpriseQuota> {
  await requireUser(db, userId);
  await db.transaction(async (tx) => {
    await saveQuota(tx, userId, {
      maxAssistants: body.max_assistants,
      minutesPerMonth: body.minutes_per_month,
      concurrentCalls: body.concurrent_calls,
      maxWorkspaces: body.max_workspaces,
      updatedAt: now,
    });
    await applyLimitsToWorkspaces(tx, userId);
  });
  return getQuota(db, userId);
}

/** Without the quota the user's tier applies again, if they have one. */
export async function deleteQuota(db: Executor, userId: string) {
  await getQuota(db, userId);
  await db.transaction(async (tx) => {
    await deleteQuotaRow(tx, userId);
    await applyLimitsToWorkspaces(tx, userId);
  });
}
