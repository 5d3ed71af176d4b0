import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";

/**
 * One writer of a workspace's rollup at a time, until the transaction ends: a change of time zone
 * rebuilds the workspace's days, and a call rolled meanwhile must land on a day of the new zone.
 */
export async function lockWorkspaceRollup(db: Executor, tenant: TenantScope): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`analytics-rollup:${tenant.workspaceId}`}))`);
}
