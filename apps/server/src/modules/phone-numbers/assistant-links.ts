import type { Executor } from "../../db/client.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { requireAgent } from "../assistants/service.ts";

/** Every assistant a number is assigned must be the workspace's (another workspace's is a 404, as elsewhere). */
export async function requireAssistants(
  db: Executor,
  tenant: TenantScope,
  ids: ReadonlyArray<string | null | undefined>,
): Promise<void> {
  for (const id of new Set(ids)) if (id) await requireAgent(db, tenant, id);
}
