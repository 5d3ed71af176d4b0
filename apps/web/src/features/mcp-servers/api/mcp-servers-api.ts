import {
  type CreateMcpServerBody,
  MCP_SERVERS_LIST_LIMIT,
  type McpServer,
  type McpTool,
  type MessageResponse,
  type UpdateMcpServerBody,
} from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";

/** Spec §5: a create or update answer without an id is not a server. */
export const INVALID_SERVER_DATA = "Invalid server data received from API";

/** What the server might send: any field may be missing. */
type Loose<T> = { [K in keyof T]?: T[K] | null };
const withId = (server: Loose<McpServer> | null | undefined): server is McpServer =>
  typeof server?.id === "string" && server.id.length > 0;

export const mcpServersQuery = () =>
  queryOptions({
    queryKey: ["mcp-servers"],
    queryFn: async () => {
      const page = await api.request<{ mcp_servers?: Loose<McpServer>[]; total?: number }>("/mcp-servers", {
        query: { skip: 0, limit: MCP_SERVERS_LIST_LIMIT },
      });
      // Spec §5: entries without an id are dropped, not shown half-broken.
      return (page?.mcp_servers ?? []).filter(withId);
    },
  });

export const mcpToolsQuery = (id: string) =>
  queryOptions({
    queryKey: ["mcp-servers", id, "tools"],
    queryFn: async () => (await api.request<{ tools?: McpTool[] }>(`/mcp-servers/${id}/tools`))?.tools ?? [],
    // Listing tools connects to the remote server; a failure is shown rather than retried silently.
    retry: false,
  });

async function expectServer(request: Promise<{ mcp_server?: Loose<McpServer> } | undefined>) {
  const server = (await request)?.mcp_server;
  if (!withId(server)) throw new Error(INVALID_SERVER_DATA);
  return server;
}

export const createMcpServer = (body: CreateMcpServerBody) =>
  expectServer(api.request("/mcp-servers", { method: "POST", body }));
export const updateMcpServer = (id: string, body: UpdateMcpServerBody) =>
  expectServer(api.request(`/mcp-servers/${id}`, { method: "PUT", body }));
export const deleteMcpServer = (id: string) => api.request<MessageResponse>(`/mcp-servers/${id}`, { method: "DELETE" });
