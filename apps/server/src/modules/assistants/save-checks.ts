import type { AssistantFields } from "@parley/contract";
import type { Executor } from "../../db/client.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";

/**
 * Checks other modules add to every assistant save, for fields that name their rows (a
 * workflow_id must be a workflow of the workspace). The assistants module cannot import those
 * modules (they import it: a cycle), so they register here from their route plugins; a check
 * throws an AppError (a 422 on its field) to refuse the save.
 */
/** The fields a check may read; provider configs arrive loose on the way in and are not for them. */
export type CheckedAssistantFields = Partial<
  Omit<AssistantFields, "llm_provider_config" | "stt_provider_config" | "tts_provider_config">
>;

export type AssistantSaveCheck = (
  db: Executor,
  tenant: TenantScope,
  /** The fields being written: all of them on create, the ones sent on update. */
  fields: CheckedAssistantFields,
) => Promise<void>;

const checks = new Set<AssistantSaveCheck>();

/** Adds a check (once, however many apps a process builds). */
export function addAssistantSaveCheck(check: AssistantSaveCheck): void {
  checks.add(check);
}

export async function runAssistantSaveChecks(
  db: Executor,
  tenant: TenantScope,
  fields: CheckedAssistantFields,
): Promise<void> {
  for (const check of checks) await check(db, tenant, fields);
}
