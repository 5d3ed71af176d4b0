import { MCP_SERVERS_LIST_LIMIT, type McpServer } from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";

/** What the assistant editor reads of a tool (MCP) server. */
export type McpServerSummary = Pick<McpServer, "id" | "name" | "description" | "url">;

/** Spec §5: list entries without an id are dropped. */
export function serversOf(body: unknown): McpServerSummary[] {
  const list = (body as { mcp_servers?: unknown } | undefined)?.mcp_servers;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (s): s is McpServerSummary => typeof s === "object" && s !== null && typeof (s as { id?: unknown }).id === "string",
  );
}

export const mcpServerOptionsQuery = () =>
  queryOptions({
    queryKey: ["assistants", "mcp-server-options"],
    queryFn: async () =>
      serversOf(await api.request<unknown>("/mcp-servers", { query: { skip: 0, limit: MCP_SERVERS_LIST_LIMIT } })),
  });

export const assistantMcpServersQuery = (assistantId: string) =>
  queryOptions({
    queryKey: ["assistants", "detail", assistantId, "mcp-servers"],
    queryFn: async () => serversOf(await api.request<unknown>(`/agents/${assistantId}/mcp-servers`)),
  });

export const assignMcpServer = (agentId: string, serverId: string) =>
  api.request(`/agents/${agentId}/mcp-servers/${serverId}`, { method: "POST" });

export const unassignMcpServer = (agentId: string, serverId: string) =>
  api.request(`/agents/${agentId}/mcp-servers/${serverId}`, { method: "DELETE" });
