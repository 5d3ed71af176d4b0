import type { AdminStats } from "@parley/contract";
import type { Executor } from "../../db/client.ts";
import { userFigures } from "../users/figures.ts";
import { workspaceCount } from "../workspaces/service.ts";

export async function adminStats(db: Executor, now: Date): Promise<AdminStats> {
  const since = new Date(now.getTime() - 30 * 24 * 3600 * 1000);
  const users = await userFigures(db, since);
  return {
    total_users: users.total_users,
    active_users: users.active_users,
    superusers: users.superusers,
    workspaces: await workspaceCount(db),
    tiers: users.tiers,
    enterprise_users: users.enterprise_users,
    signups_last_30_days: users.signups_last_30_days,
  };
}
