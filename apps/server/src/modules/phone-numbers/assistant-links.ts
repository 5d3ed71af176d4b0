import type { Executor } from "../../db/client.ts";
import { validationFailed } from "../../lib/field-errors.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { requireAgent } from "../assistants/service.ts";
import { requireSquad } from "../squads/service.ts";

/** Every assistant a number is assigned must be the workspace's (another workspace's is a 404, as elsewhere). */
export async function requireAssistants(
  db: Executor,
  tenant: TenantScope,
  ids: ReadonlyArray<string | null | undefined>,
): Promise<void> {
  for (const id of new Set(ids)) if (id) await requireAgent(db, tenant, id);
}

/**
 * Who answers a number's inbound calls (issue 31): an assistant or a squad, never both. The squad
 * must be the workspace's (another's is a 404, as for assistants).
 */
export async function requireInboundTarget(
  db: Executor,
  tenant: TenantScope,
  target: { agent_id?: string | null; squad_id?: string | null },
): Promise<void> {
  if (target.agent_id && target.squad_id)
    throw validationFailed([{ path: ["squad_id"], message: "Choose an assistant or a squad to answer, not both." }]);
  if (target.squad_id) await requireSquad(db, tenant, target.squad_id);
}
