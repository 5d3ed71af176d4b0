import type { AnalyticsSettings } from "@parley/contract";
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { rebuildDailyRollup } from "./daily-rebuild.ts";
import { lockWorkspaceRollup } from "./rollup-lock.ts";
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

/** The database's own list of zones decides: a name it does not know would fail every query. */
async function requireKnownZone(db: Executor, zone: string): Promise<void> {
  const [known] = await db.select({ name: sql<string>`name` }).from(sql`pg_timezone_names`).where(sql`name = ${zone}`);
  if (!known) throw new AppError("validation", `The database does not know the time zone ${zone}.`);
}

/** Sets the workspace's zone; its days are rebuilt for it at once (under the rollup's lock). */
export async function saveSettings(db: Executor, tenant: TenantScope, input: AnalyticsSettings) {
  await requireKnownZone(db, input.time_zone);
  await db.transaction(async (tx) => {
    await lockWorkspaceRollup(tx, tenant);
    const before = await timeZoneOf(tx, tenant);
    await tx
      .insert(analyticsSettings)
      .values(scoped(analyticsSettings, tenant).values({ timeZone: input.time_zone }))
      .onConflictDoUpdate({
        target: analyticsSettings.workspaceId,
        set: { timeZone: input.time_zone, updatedAt: new Date() },
      });
    if (before !== input.time_zone) await rebuildDailyRollup(tx, tenant, input.time_zone);
  });
  return getSettings(db, tenant);
}
