import type { BillingPlan, BillingUsage } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import type { Tenant } from "../../lib/tenant-scope.ts";
import { countAssistants } from "../assistants/service.ts";
import { effectiveLimits } from "../users/limits.ts";
import { findUserById } from "../users/service.ts";
import { getTier } from "../users/tiers.ts";
import { ownedWorkspaceCount, ownedWorkspaceIds, planOwnerOf } from "../workspaces/service.ts";
import { countedMinutes, monthStartOf } from "./counted-calls-across-workspaces.ts";
import {
  assistantUsage,
  componentUsage,
  dailyUsage,
  periodBounds,
  periodHistory,
  periodOf,
  periodTotals,
} from "./usage-queries.ts";

/** The plan behind the workspace this month: its owner's tier (and price) or enterprise quota, and what it used. */
export async function currentPlan(ctx: AppContext, tenant: Tenant): Promise<BillingPlan> {
  const owner = await planOwnerOf(ctx.db, tenant.workspaceId);
  const limits = owner ? await effectiveLimits(ctx.db, owner) : undefined;
  const tierId = owner ? (await findUserById(ctx.db, owner))?.tierId : null;
  const tier = tierId ? await getTier(ctx.db, tierId).catch(() => null) : null;
  const workspaceIds = owner ? await ownedWorkspaceIds(ctx.db, owner) : [tenant.workspaceId];
  return {
    tier_name: tier?.name ?? null,
    monthly_price: tier?.price ?? null,
    source: limits?.source ?? null,
    limits: limits
      ? {
          minutes_per_month: limits.minutesPerMonth,
          concurrent_calls: limits.concurrentCalls,
          max_assistants: limits.maxAssistants,
          max_workspaces: limits.maxWorkspaces,
        }
      : null,
    minutes_used: await countedMinutes(ctx.db, { workspaceIds, from: monthStartOf(ctx.now()) }),
    assistants_used: await countAssistants(ctx.db, tenant),
    workspaces_used: owner ? await ownedWorkspaceCount(ctx.db, owner) : 1,
  };
}

/** One month of the workspace's metered usage; the plan only for the current month. */
export async function billingUsage(ctx: AppContext, tenant: Tenant, period?: string): Promise<BillingUsage> {
  const current = periodOf(ctx.now());
  const wanted = period ?? current;
  const { db } = ctx;
  const [totals, daily, byComponent, byAssistant, history] = await Promise.all([
    periodTotals(db, tenant, wanted),
    dailyUsage(db, tenant, wanted),
    componentUsage(db, tenant, wanted),
    assistantUsage(db, tenant, wanted),
    periodHistory(db, tenant),
  ]);
  const periods = history.some((p) => p.period === current)
    ? history
    : [{ period: current, calls: 0, minutes: 0, cost: 0 }, ...history];
  const { start, end } = periodBounds(wanted);
  return {
    period: wanted,
    period_start: start,
    period_end: end,
    currency: "USD",
    ...totals,
    daily,
    by_component: byComponent,
    by_assistant: byAssistant,
    periods,
    plan: wanted === current ? await currentPlan(ctx, tenant) : null,
  };
}
