import type { FunctionHttpMethod } from "@parley/contract";
import { integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "../../lib/table-columns.ts";
import { assistantLinkTable } from "../assistants/link-table.ts";
import { workspaceRecordKey } from "../workspaces/owned-columns.ts";

/**
 * Webhook tools. `secret` is sealed by SecretBox and never leaves the server; `headers` is the JSON
 * of the header map, sealed too (it often carries API keys) and shown masked.
 */
export const functions = pgTable(
  "functions",
  {
    ...workspaceRecordKey(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    parameters: jsonb("parameters").$type<Record<string, unknown>>().notNull(),
    url: text("url").notNull(),
    method: text("method").$type<FunctionHttpMethod>().notNull(),
    headers: text("headers").notNull(),
    timeout: integer("timeout").notNull(),
    secret: text("secret"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("functions_workspace_name_idx").on(t.workspaceId, t.name)],
);

export const agentFunctions = assistantLinkTable("agent_functions", {
  key: "functionId",
  column: "function_id",
  references: () => functions.id,
  index: "agent_functions_function_idx",
});

export type FunctionRow = typeof functions.$inferSelect;
