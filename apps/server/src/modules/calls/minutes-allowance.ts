import { MINUTES_RUNNING_OUT_WARNING } from "@parley/contract";
import type { CallSettings } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { grantSeconds, MIN_CALL_SECONDS, minutesCommitted, type PlanScope } from "../billing/minute-grants.ts";
import { effectiveLimits } from "../users/limits.ts";
import { ownedWorkspaceIds, planOwnerOf } from "../workspaces/service.ts";

export const minutesUsedUpText = (limit: number) =>
  `This workspace's plan has used all ${limit} call minutes for this month. Ask the workspace owner to raise the limit, or wait until the 1st.`;

/** The warning of a call cut short by the allowance is said this long before its end. */
const WARNING_LEAD_SECONDS = 30;
/**
 * What a call lasts beyond its engine's limit: the limit's timer starts once the session runs and the
 * call then winds down (the cut reply, the transport closing). A call cut short by the allowance gets
 * its grant less this, so its logged duration stays within the plan.
 */
export const WIND_DOWN_SECONDS = 2;

/**
 * The plan a workspace's calls count against: its owner's limits over every workspace they own (in
 * the calendar month in UTC). Undefined without a tier or quota: no limit.
 */
async function planOf(ctx: AppContext, tenant: TenantScope): Promise<PlanScope | undefined> {
  const owner = await planOwnerOf(ctx.db, tenant.workspaceId);
  const limits = owner ? await effectiveLimits(ctx.db, owner) : undefined;
  if (!owner || !limits) return undefined;
  return {
    ownerId: owner,
    workspaceIds: await ownedWorkspaceIds(ctx.db, owner),
    minutesPerMonth: limits.minutesPerMonth,
  };
}

/**
 * Refuses a call once the plan's monthly minutes are spoken for — used by ended calls or set aside
 * for the calls running now (on any process) — or what is left is less than a useful call
 * (MIN_CALL_SECONDS): the caller hears nothing rather than a call cut off as it starts.
 */
export async function requireMinutesLeft(ctx: AppContext, tenant: TenantScope): Promise<void> {
  const plan = await planOf(ctx, tenant);
  if (!plan) return;
  const leftSeconds = (plan.minutesPerMonth - (await minutesCommitted(ctx.db, plan, ctx.now()))) * 60;
  if (leftSeconds < MIN_CALL_SECONDS) {
    throw new AppError("forbidden", minutesUsedUpText(plan.minutesPerMonth));
  }
}

/**
 * The call's settings within the plan's allowance, as the caller joins: its maximum duration is
 * capped to the minutes left (set aside for it, so a call starting beside it cannot take them too;
 * less its wind-down, so it ends within them), with a spoken warning half a minute before that end.
 * Refuses the call when less than a useful call is left.
 */
export async function withinPlanMinutes(
  ctx: AppContext,
  call: TenantScope & { callId: string },
  settings: CallSettings,
): Promise<CallSettings> {
  const plan = await planOf(ctx, call);
  if (!plan) return settings;
  const wantSeconds = settings.maxDuration.seconds;
  const seconds = await grantSeconds(ctx.db, plan, { ...call, wantSeconds }, ctx.now());
  if (seconds === 0) throw new AppError("forbidden", minutesUsedUpText(plan.minutesPerMonth));
  if (seconds >= wantSeconds) return settings;
  const talkSeconds = seconds - WIND_DOWN_SECONDS;
  const warningShare =
    talkSeconds > 2 * WARNING_LEAD_SECONDS ? (talkSeconds - WARNING_LEAD_SECONDS) / talkSeconds : 0.5;
  return {
    ...settings,
    maxDuration: { seconds: talkSeconds, warningShare, warningMessage: MINUTES_RUNNING_OUT_WARNING },
  };
}

/** The refusal of a call because the plan's minutes are spoken for (a campaign waits on it). */
export const isMinutesRefusal = (error: unknown): error is AppError =>
  error instanceof AppError && error.code === "forbidden" && /call minutes for this month/.test(error.message);
