import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import type { AssistantSaveCheck } from "../assistants/save-checks.ts";
import { workflowExists } from "./service.ts";

export const WORKFLOW_NOT_IN_WORKSPACE = "Choose a workflow of this workspace.";

/**
 * An assistant's `workflow_id` must name a workflow of the assistant's own workspace: checked on
 * every assistant save that sets one (null, no workflow, always passes). A 422 on the field, not
 * a 404, because the assistant is what is being saved.
 */
export async function requireAssistantWorkflow(
  db: Executor,
  tenant: TenantScope,
  workflowId: string | null | undefined,
): Promise<void> {
  if (!workflowId) return;
  if (await workflowExists(db, tenant, workflowId)) return;
  throw new AppError("validation", WORKFLOW_NOT_IN_WORKSPACE, {}, [
    { field: "workflow_id", message: WORKFLOW_NOT_IN_WORKSPACE },
  ]);
}

/** The check as the assistants module runs it on every save (registered by the workflows routes). */
export const assistantWorkflowCheck: AssistantSaveCheck = (db, tenant, fields) =>
  requireAssistantWorkflow(db, tenant, fields.workflow_id);
