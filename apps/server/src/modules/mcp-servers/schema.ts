import type { McpTransport } from "@parley/contract";
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestamps } from "../../lib/table-columns.ts";
import { assistantLinkTable } from "../assistants/link-table.ts";
import { workspaceRecordKey } from "../workspaces/owned-columns.ts";

/** MCP tool servers; `headers` is the JSON of the header map, sealed by SecretBox (it often carries tokens). */
export const mcpServers = pgTable(
  "mcp_servers",
  {
    ...workspaceRecordKey(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    url: text("url").notNull(),
    timeout: integer("timeout").notNull(),
    headers: text("headers").notNull(),
    transport: text("transport").$type<McpTransport>().notNull(),
    ...timestamps(),
  },
  (t) => [index("mcp_servers_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export const agentMcpServers = assistantLinkTable("agent_mcp_servers", {
  key: "mcpServerId",
  column: "mcp_server_id",
  references: () => mcpServers.id,
  index: "agent_mcp_servers_server_idx",
});

export type McpServerRow = typeof mcpServers.$inferSelect;
