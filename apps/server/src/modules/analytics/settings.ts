import type { AnalyticsSettings } from "@parley/contract";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { analyticsSettings } from "./schema.ts";

const DEFAULT_ZONE = "UTC";

/** The zone the workspace's analytics days are read in (UTC until someone sets one). */
export async function timeZoneOf(db: Executor, tenant: TenantScope): Promise<string> {
  const [row] = await db
    .select({ timeZone: analyticsSettings.timeZone })
    .from(analyticsSettings)
    .where(scoped(analyticsSettings, tenant).where());
  return row?.timeZone ?? DEFAULT_ZONE;
}

export async function getSettings(db: Executor, tenant: TenantScope): Promise<AnalyticsSettings> {
  return { time_zone: await timeZoneOf(db, tenant) };
}

export async function saveSettings(db: Executor, tenant: TenantScope, input: AnalyticsSettings) {
  await db
    .insert(analyticsSettings)
    .values(scoped(analyticsSettings, tenant).values({ timeZone: input.time_zone }))
    .onConflictDoUpdate({
      target: analyticsSettings.workspaceId,
      set: { timeZone: input.time_zone, updatedAt: new Date() },
    });
  return getSettings(db, tenant);
}
