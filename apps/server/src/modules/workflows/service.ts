import {
  type CreateWorkflowBody,
  starterWorkflowGraph,
  type UpdateWorkflowBody,
  WORKFLOW_LIMITS,
  type Workflow,
  type WorkflowGraph,
  type WorkflowListQuery,
  type WorkflowPage,
  type WorkflowSummary,
  type WorkflowVariable,
  type WorkflowVersion,
} from "@parley/contract";
import { asc, count, desc, eq, ilike, isNull, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { pageOf, pageWindow } from "../../lib/paging.ts";
import { requireRow } from "../../lib/scoped-rows.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { requireAgent } from "../assistants/service.ts";
import { assistantIdsByWorkflow, attachWorkflow, detachWorkflow } from "../assistants/workflow-links.ts";
import { toWorkflowVersion } from "./published.ts";
import { type WorkflowRow, workflows, workflowVersions } from "./schema.ts";

export type { WorkflowRow };

const WORKFLOW_NOT_FOUND = "Workflow not found.";

/** What publishing snapshots; the name and description are not versioned. */
interface WorkflowContent {
  graph: WorkflowGraph;
  globalPrompt: string;
  variables: WorkflowVariable[];
}

/** JSON with object keys sorted: PostgreSQL's jsonb reorders keys, so plain JSON texts differ. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const sameContent = (a: WorkflowContent, b: WorkflowContent) =>
  canonicalJson([a.graph, a.globalPrompt, a.variables]) === canonicalJson([b.graph, b.globalPrompt, b.variables]);

export function toWorkflow(row: WorkflowRow, assistantIds: string[]): Workflow {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    global_prompt: row.globalPrompt,
    variables: row.variables,
    graph: row.graph,
    published_version: row.publishedVersion,
    has_unpublished_changes: row.publishedVersion === null || row.draftChanged,
    assistant_ids: assistantIds,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function withAssistants(db: Executor, tenant: TenantScope, row: WorkflowRow): Promise<Workflow> {
  const ids = await assistantIdsByWorkflow(db, tenant, [row.id]);
  return toWorkflow(row, ids.get(row.id) ?? []);
}

/** LIKE wildcards in a user's search are literal characters. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const SORT_COLUMNS = { name: workflows.name, created_at: workflows.createdAt, updated_at: workflows.updatedAt };

export async function listWorkflows(
  db: Executor,
  tenant: TenantScope,
  query: z.output<typeof WorkflowListQuery>,
): Promise<WorkflowPage> {
  const term = query.search?.trim();
  const where: SQL | undefined = scoped(workflows, tenant).where(
    term ? ilike(workflows.name, likePattern(term)) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(workflows).where(where);
  const totalCount = Number(total?.n ?? 0);
  const direction = query.sort_order === "asc" ? asc : desc;
  const slice = pageWindow(query);
  const rows = await db
    .select({
      id: workflows.id,
      name: workflows.name,
      description: workflows.description,
      publishedVersion: workflows.publishedVersion,
      draftChanged: workflows.draftChanged,
      nodeCount: sql<number>`jsonb_array_length(${workflows.graph} -> 'nodes')`.mapWith(Number),
      createdAt: workflows.createdAt,
      updatedAt: workflows.updatedAt,
    })
    .from(workflows)
    .where(where)
    .orderBy(direction(SORT_COLUMNS[query.sort_by]), direction(workflows.id))
    .limit(slice.limit)
    .offset(slice.offset);
  const assistants = await assistantIdsByWorkflow(
    db,
    tenant,
    rows.map((r) => r.id),
  );
  const data: WorkflowSummary[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    published_version: r.publishedVersion,
    has_unpublished_changes: r.publishedVersion === null || r.draftChanged,
    assistant_ids: assistants.get(r.id) ?? [],
    node_count: r.nodeCount,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
  return pageOf(data, totalCount, query);
}

export async function requireWorkflowRow(db: Executor, tenant: TenantScope, id: string): Promise<WorkflowRow> {
  return requireRow(db, workflows, tenant, id, WORKFLOW_NOT_FOUND);
}

export async function getWorkflow(db: Executor, tenant: TenantScope, id: string): Promise<Workflow> {
  return withAssistants(db, tenant, await requireWorkflowRow(db, tenant, id));
}

/** Whether the workspace holds the workflow (an assistant may only point at its own workspace's). */
export async function workflowExists(db: Executor, tenant: TenantScope, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: workflows.id })
    .from(workflows)
    .where(scoped(workflows, tenant).where(eq(workflows.id, id)));
  return row !== undefined;
}

async function insertWorkflow(
  db: Executor,
  tenant: TenantScope,
  values: { name: string; description: string } & WorkflowContent,
): Promise<WorkflowRow> {
  const [row] = await db.insert(workflows).values(scoped(workflows, tenant).values(values)).returning();
  if (!row) throw new Error("insert into workflows returned no row");
  return row;
}

/**
 * A new workflow holding a start and an end node. With `assistant_id` it becomes that assistant's
 * workflow in the same step (whatever workflow the assistant had stays in the workspace, unattached).
 */
export async function createWorkflow(
  db: Executor,
  tenant: TenantScope,
  body: z.output<typeof CreateWorkflowBody>,
  now: Date,
): Promise<Workflow> {
  const agent = body.assistant_id ? await requireAgent(db, tenant, body.assistant_id) : undefined;
  const row = await db.transaction(async (tx) => {
    const created = await insertWorkflow(tx, tenant, {
      name: body.name,
      description: body.description,
      graph: starterWorkflowGraph(),
      globalPrompt: "",
      variables: [],
    });
    if (agent) await attachWorkflow(tx, tenant, agent.id, created.id, now);
    return created;
  });
  return withAssistants(db, tenant, row);
}

async function latestVersion(db: Executor, tenant: TenantScope, workflowId: string) {
  const [row] = await db
    .select()
    .from(workflowVersions)
    .where(scoped(workflowVersions, tenant).where(eq(workflowVersions.workflowId, workflowId)))
    .orderBy(desc(workflowVersions.version))
    .limit(1);
  return row;
}

/** PATCH: saves the draft. Whether it now differs from the published version is recorded with it. */
export async function updateWorkflow(
  db: Executor,
  tenant: TenantScope,
  id: string,
  body: z.output<typeof UpdateWorkflowBody>,
  now: Date,
): Promise<Workflow> {
  const row = await requireWorkflowRow(db, tenant, id);
  const content: WorkflowContent = {
    graph: body.graph ?? row.graph,
    globalPrompt: body.global_prompt ?? row.globalPrompt,
    variables: body.variables ?? row.variables,
  };
  const published = row.publishedVersion === null ? undefined : await latestVersion(db, tenant, id);
  const [updated] = await db
    .update(workflows)
    .set({
      name: body.name ?? row.name,
      description: body.description ?? row.description,
      ...content,
      draftChanged: published ? !sameContent(content, published) : true,
      updatedAt: now,
    })
    .where(scoped(workflows, tenant).where(eq(workflows.id, id)))
    .returning();
  return withAssistants(db, tenant, found(updated, WORKFLOW_NOT_FOUND));
}

/** "<name> (copy)", cut so it still fits the name's limit. */
export function copyName(name: string): string {
  const suffix = " (copy)";
  return `${name.slice(0, WORKFLOW_LIMITS.name - suffix.length).trimEnd()}${suffix}`;
}

/** A new, unpublished workflow with the draft of another; versions and assistants stay behind. */
export async function duplicateWorkflow(db: Executor, tenant: TenantScope, id: string): Promise<Workflow> {
  const source = await requireWorkflowRow(db, tenant, id);
  const row = await insertWorkflow(db, tenant, {
    name: copyName(source.name),
    description: source.description,
    graph: source.graph,
    globalPrompt: source.globalPrompt,
    variables: source.variables,
  });
  return toWorkflow(row, []);
}

/**
 * Deletes a workflow and its versions; the assistants that ran it are detached (workflow_id null)
 * in the same transaction, so none is left pointing at nothing.
 */
export async function deleteWorkflow(db: Executor, tenant: TenantScope, id: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await detachWorkflow(tx, tenant, id, now);
    const deleted = await tx
      .delete(workflows)
      .where(scoped(workflows, tenant).where(eq(workflows.id, id)))
      .returning({ id: workflows.id });
    found(deleted[0], WORKFLOW_NOT_FOUND);
  });
}

/**
 * Snapshots the draft the caller validated (`row`) as the next version. The number is claimed by
 * a conditional update of published_version, so two publishes at once cannot write the same one;
 * the loser gets a 409. A save that lands between the read and the publish stays a draft change.
 */
export async function publishDraft(db: Executor, tenant: TenantScope, row: WorkflowRow, now: Date): Promise<Workflow> {
  const next = (row.publishedVersion ?? 0) + 1;
  const published = await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(workflows)
      .set({
        publishedVersion: next,
        // jsonb compares by value: true only when the stored draft is no longer the one published.
        draftChanged: sql`(${workflows.graph} <> ${JSON.stringify(row.graph)}::jsonb
          or ${workflows.variables} <> ${JSON.stringify(row.variables)}::jsonb
          or ${workflows.globalPrompt} <> ${row.globalPrompt})`,
        updatedAt: now,
      })
      .where(
        scoped(workflows, tenant).where(
          eq(workflows.id, row.id),
          row.publishedVersion === null
            ? isNull(workflows.publishedVersion)
            : eq(workflows.publishedVersion, row.publishedVersion),
        ),
      )
      .returning();
    if (!claimed) return undefined;
    await tx.insert(workflowVersions).values(
      scoped(workflowVersions, tenant).values({
        workflowId: row.id,
        version: next,
        graph: row.graph,
        globalPrompt: row.globalPrompt,
        variables: row.variables,
        publishedAt: now,
      }),
    );
    return claimed;
  });
  if (!published)
    throw new AppError("conflict", "The workflow was published by someone else just now. Reload and try again.");
  return withAssistants(db, tenant, published);
}

/** The workflow's published versions, newest first. */
export async function listVersions(db: Executor, tenant: TenantScope, id: string): Promise<WorkflowVersion[]> {
  await requireWorkflowRow(db, tenant, id);
  const rows = await db
    .select()
    .from(workflowVersions)
    .where(scoped(workflowVersions, tenant).where(eq(workflowVersions.workflowId, id)))
    .orderBy(desc(workflowVersions.version));
  return rows.map(toWorkflowVersion);
}
