import type { WorkflowVersion } from "@parley/contract";
import { desc, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type WorkflowVersionRow, workflows, workflowVersions } from "./schema.ts";

/** What a call runs: the latest published version of the assistant's workflow. */
export type PublishedWorkflow = WorkflowVersion & { workflow_id: string; name: string };

export function toWorkflowVersion(row: WorkflowVersionRow): WorkflowVersion {
  return {
    version: row.version,
    graph: row.graph,
    global_prompt: row.globalPrompt,
    variables: row.variables,
    published_at: row.publishedAt.toISOString(),
  };
}

/**
 * The published workflow an assistant's call runs, read once at call start; null when the
 * assistant has no workflow, its workflow was never published, or it is not the workspace's
 * (a workflow of another workspace never runs, whatever an assistant's config says). Takes the
 * assistant in its API shape (`Assistant`) or its stored config (`AgentRow["config"]`).
 * `version` pins the workflow version an assistant version was published with (issue 30): that
 * one, or null when it is gone; without it, the latest published version runs.
 */
export async function loadPublishedWorkflow(
  db: Executor,
  tenant: TenantScope,
  assistant: { workflow_id?: string | null | undefined },
  version?: number,
): Promise<PublishedWorkflow | null> {
  const workflowId = assistant.workflow_id;
  if (!workflowId) return null;
  const [row] = await db
    .select({ name: workflows.name, version: workflowVersions })
    .from(workflowVersions)
    .innerJoin(workflows, eq(workflows.id, workflowVersions.workflowId))
    .where(
      scoped(workflowVersions, tenant).where(
        scoped(workflows, tenant).where(
          eq(workflows.id, workflowId),
          version === undefined ? undefined : eq(workflowVersions.version, version),
        ),
      ),
    )
    .orderBy(desc(workflowVersions.version))
    .limit(1);
  if (!row) return null;
  return { ...toWorkflowVersion(row.version), workflow_id: workflowId, name: row.name };
}
