import type { CallStatsResponse } from "@parley/contract";
import type { Executor } from "../../db/client.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { recentCalls } from "../call-logs/queries.ts";
import { countedTotals, monthStartOf } from "./counted-calls-across-workspaces.ts";

/**
 * Home's figures: this calendar month's (UTC) calls and minutes as billing counts them (the same
 * figures as /billing), the calls in progress, and the five latest calls whatever their outcome.
 */
export async function homeFigures(
  db: Executor,
  tenant: TenantScope,
  now: Date,
  activeCalls: number,
): Promise<CallStatsResponse> {
  const [month, recent] = await Promise.all([
    countedTotals(db, { workspaceIds: [tenant.workspaceId], from: monthStartOf(now) }),
    recentCalls(db, tenant),
  ]);
  return {
    calls_this_month: month.calls,
    // Unrounded, as Billing sends it: pages round once, alike, when they show it.
    minutes_this_month: month.minutes,
    active_calls: activeCalls,
    recent_calls: recent,
  };
}
