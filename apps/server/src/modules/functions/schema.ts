import type { FunctionHttpMethod } from "@parley/contract";
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { agents } from "../assistants/schema.ts";
import { workspaces } from "../workspaces/schema.ts";

/**
 * Webhook tools. `secret` is sealed by SecretBox and never leaves the server; `headers` is the JSON
 * of the header map, sealed too (it often carries API keys) and shown masked.
 */
export const functions = pgTable(
  "functions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull(),
    parameters: jsonb("parameters").$type<Record<string, unknown>>().notNull(),
    url: text("url").notNull(),
    method: text("method").$type<FunctionHttpMethod>().notNull(),
    headers: text("headers").notNull(),
    timeout: integer("timeout").notNull(),
    secret: text("secret"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("functions_workspace_name_idx").on(t.workspaceId, t.name)],
);

export const agentFunctions = pgTable(
  "agent_functions",
  {
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    functionId: uuid("function_id")
      .notNull()
      .references(() => functions.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.functionId] }), index("agent_functions_function_idx").on(t.functionId)],
);

export type FunctionRow = typeof functions.$inferSelect;
