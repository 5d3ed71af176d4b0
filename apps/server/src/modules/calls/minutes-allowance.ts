import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { minutesUsedSince } from "../call-logs/service.ts";
import { effectiveLimits } from "../users/limits.ts";
import { ownedWorkspaceIds, planOwnerOf } from "../workspaces/service.ts";

export const minutesUsedUpText = (limit: number) =>
  `This workspace's plan has used all ${limit} call minutes for this month. Ask the workspace owner to raise the limit, or wait until the 1st.`;

/**
 * Refuses a call once the plan behind the workspace has used its `minutes_per_month` (counted over
 * every workspace its owner owns, like the concurrency allowance, in the calendar month in UTC).
 * A user without a tier or quota has no limit.
 */
export async function requireMinutesLeft(ctx: AppContext, tenant: TenantScope): Promise<void> {
  const owner = await planOwnerOf(ctx.db, tenant.workspaceId);
  const limits = owner ? await effectiveLimits(ctx.db, owner) : undefined;
  if (!owner || !limits) return;
  const now = ctx.now();
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const used = await minutesUsedSince(ctx.db, await ownedWorkspaceIds(ctx.db, owner), monthStart);
  if (used >= limits.minutesPerMonth) throw new AppError("forbidden", minutesUsedUpText(limits.minutesPerMonth));
}
