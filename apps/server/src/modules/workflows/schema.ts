import type { WorkflowGraph, WorkflowVariable } from "@parley/contract";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { timestamps } from "../../lib/table-columns.ts";
import { workspaceIdColumn, workspaceRecordKey } from "../workspaces/owned-columns.ts";

/**
 * Workflows (issue 15). The row holds the DRAFT the builder edits (graph, global prompt,
 * variables as JSON, validated by the contract on the way in); publishing copies the draft into
 * workflow_versions, which calls run. Assistants point at a workflow from their config
 * (`workflow_id`), so a workflow knows its assistants by querying them, not by a column here.
 */
export const workflows = pgTable(
  "workflows",
  {
    ...workspaceRecordKey(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    globalPrompt: text("global_prompt").notNull().default(""),
    variables: jsonb("variables").$type<WorkflowVariable[]>().notNull(),
    graph: jsonb("graph").$type<WorkflowGraph>().notNull(),
    /** The latest published version; null until the first publish. */
    publishedVersion: integer("published_version"),
    /** The draft differs from the latest version: kept on each save so the list needs no comparison. */
    draftChanged: boolean("draft_changed").notNull().default(true),
    ...timestamps(),
  },
  (t) => [index("workflows_workspace_idx").on(t.workspaceId, t.updatedAt)],
);

/** Published snapshots, numbered from 1 per workflow; never changed once written. */
export const workflowVersions = pgTable(
  "workflow_versions",
  {
    workflowId: uuid("workflow_id")
      .notNull()
      .references(() => workflows.id, { onDelete: "cascade" }),
    /** Repeats the workflow's workspace so every read is scoped like any other table. */
    workspaceId: workspaceIdColumn(),
    version: integer("version").notNull(),
    globalPrompt: text("global_prompt").notNull(),
    variables: jsonb("variables").$type<WorkflowVariable[]>().notNull(),
    graph: jsonb("graph").$type<WorkflowGraph>().notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workflowId, t.version] })],
);

export type WorkflowRow = typeof workflows.$inferSelect;
export type WorkflowVersionRow = typeof workflowVersions.$inferSelect;
