import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { agents } from "./schema.ts";

/**
 * The assistants' side of workflows (issue 15): an assistant names its workflow in its config's
 * `workflow_id`, so finding, attaching and detaching assistants are queries on that JSON field.
 * The workflows module calls these; it may not touch the agents table itself.
 */

/** The config's workflow_id as text, so it compares with a uuid parameter. */
const agentWorkflowId = sql<string>`${agents.config} ->> 'workflow_id'`;

/** The (non-temporary) assistants attached to each of the workflows, oldest first. */
export async function assistantIdsByWorkflow(
  db: Executor,
  tenant: TenantScope,
  workflowIds: string[],
): Promise<Map<string, string[]>> {
  const byWorkflow = new Map<string, string[]>(workflowIds.map((id) => [id, []]));
  if (workflowIds.length === 0) return byWorkflow;
  const rows = await db
    .select({ id: agents.id, workflowId: agentWorkflowId })
    .from(agents)
    .where(scoped(agents, tenant).where(eq(agents.temp, false), inArray(agentWorkflowId, workflowIds)))
    .orderBy(asc(agents.createdAt), asc(agents.id));
  for (const row of rows) byWorkflow.get(row.workflowId)?.push(row.id);
  return byWorkflow;
}

/**
 * A pending draft follows a workflow attached or detached under it, so publishing the draft later
 * does not undo that (the draft holds every field, workflow_id included).
 */
const draftWithWorkflow = (workflowId: string | null) =>
  sql`case when ${agents.draft} is null then null else ${agents.draft} || ${JSON.stringify({ workflow_id: workflowId })}::jsonb end`;

/**
 * Points an assistant at a workflow (the caller has checked both are the workspace's). The published
 * row changes in place, as before versions: no new version is written (see issue 30's report).
 */
export async function attachWorkflow(
  db: Executor,
  tenant: TenantScope,
  agentId: string,
  workflowId: string,
  now: Date,
): Promise<void> {
  await db
    .update(agents)
    .set({
      config: sql`${agents.config} || ${JSON.stringify({ workflow_id: workflowId })}::jsonb`,
      draft: draftWithWorkflow(workflowId),
      updatedAt: now,
    })
    .where(scoped(agents, tenant).where(eq(agents.id, agentId)));
}

/** Every assistant of the workspace that ran the workflow runs none now (workflow_id null). */
export async function detachWorkflow(db: Executor, tenant: TenantScope, workflowId: string, now: Date): Promise<void> {
  await db
    .update(agents)
    .set({
      config: sql`jsonb_set(${agents.config}, '{workflow_id}', 'null'::jsonb)`,
      draft: draftWithWorkflow(null),
      updatedAt: now,
    })
    .where(scoped(agents, tenant).where(eq(agentWorkflowId, workflowId)));
}
