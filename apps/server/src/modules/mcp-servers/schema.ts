import type { McpTransport } from "@parley/contract";
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { agents } from "../assistants/schema.ts";
import { workspaces } from "../workspaces/schema.ts";

/** MCP tool servers; `headers` is the JSON of the header map, sealed by SecretBox (it often carries tokens). */
export const mcpServers = pgTable(
  "mcp_servers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    url: text("url").notNull(),
    timeout: integer("timeout").notNull(),
    headers: text("headers").notNull(),
    transport: text("transport").$type<McpTransport>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mcp_servers_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export const agentMcpServers = pgTable(
  "agent_mcp_servers",
  {
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    mcpServerId: uuid("mcp_server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.mcpServerId] }), index("agent_mcp_servers_server_idx").on(t.mcpServerId)],
);

export type McpServerRow = typeof mcpServers.$inferSelect;
