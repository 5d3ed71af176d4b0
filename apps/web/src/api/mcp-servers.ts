import {
  type CreateMcpServerBody,
  MCP_SERVER_DEFAULT_TIMEOUT_SECONDS,
  MCP_SERVERS_LIST_LIMIT,
  McpServer,
  McpToolsResponse,
  type UpdateMcpServerBody,
} from "@parley/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { useWorkspaceId } from "../lib/auth-context.ts";
import { api } from "../lib/http-client.ts";

/** Tool (MCP) servers of the workspace and their links to assistants, spec §5/§7. */
export const mcpServerKeys = {
  all: (workspaceId: string) => [workspaceId, "mcp-servers"] as const,
  list: (workspaceId: string) => [workspaceId, "mcp-servers", "list"] as const,
  tools: (workspaceId: string, id: string) => [workspaceId, "mcp-servers", "tools", id] as const,
  ofAssistant: (workspaceId: string, assistantId: string) =>
    [workspaceId, "mcp-servers", "assistant", assistantId] as const,
};

/** Spec §5: a create or update answer without an id is not a server. */
export const INVALID_SERVER_DATA = "Invalid server data received from API";

/** A server as the API sends it; without an id it is no server, any other missing field reads as its default. */
const ServerEntry = McpServer.extend({
  id: z.string().min(1),
  description: McpServer.shape.description.catch(""),
  timeout: McpServer.shape.timeout.catch(MCP_SERVER_DEFAULT_TIMEOUT_SECONDS),
  headers: McpServer.shape.headers.catch({}),
  transport: McpServer.shape.transport.catch("auto"),
  created_at: McpServer.shape.created_at.catch(""),
  updated_at: McpServer.shape.updated_at.catch(""),
});

/** A `{ mcp_servers }` list (the workspace's or an assistant's). Spec §5: entries without an id are dropped. */
export function serversOf(body: unknown): McpServer[] {
  const list = z.object({ mcp_servers: z.array(z.unknown()) }).safeParse(body);
  if (!list.success) return [];
  return list.data.mcp_servers.flatMap((entry) => {
    const server = ServerEntry.safeParse(entry);
    return server.success ? [server.data] : [];
  });
}

async function expectServer(answer: Promise<unknown>): Promise<McpServer> {
  const parsed = z.object({ mcp_server: ServerEntry }).safeParse(await answer);
  if (!parsed.success) throw new Error(INVALID_SERVER_DATA);
  return parsed.data.mcp_server;
}

export const createMcpServer = (body: CreateMcpServerBody) =>
  expectServer(api.request("/mcp-servers", { method: "POST", body }));
export const updateMcpServer = (id: string, body: UpdateMcpServerBody) =>
  expectServer(api.request(`/mcp-servers/${id}`, { method: "PUT", body }));

export const mcpServersQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: mcpServerKeys.list(workspaceId),
    queryFn: async () =>
      serversOf(await api.request("/mcp-servers", { query: { skip: 0, limit: MCP_SERVERS_LIST_LIMIT } })),
  });

export const useMcpServers = () => useQuery(mcpServersQuery(useWorkspaceId()));

export function useAssistantMcpServers(assistantId: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: mcpServerKeys.ofAssistant(workspaceId, assistantId),
    queryFn: async () => serversOf(await api.request(`/agents/${assistantId}/mcp-servers`)),
  });
}

export function useMcpTools(id: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: mcpServerKeys.tools(workspaceId, id),
    queryFn: async () => McpToolsResponse.parse(await api.request(`/mcp-servers/${id}/tools`)).tools,
    // Listing tools connects to the remote server; a failure is shown rather than retried silently.
    retry: false,
  });
}

/** Adds (no id) or edits a server; every list that shows it, and its tools, are refreshed. */
export function useSaveMcpServer() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: CreateMcpServerBody }) =>
      id ? updateMcpServer(id, body) : createMcpServer(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mcpServerKeys.all(workspaceId) }),
  });
}

export function useDeleteMcpServer() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request(`/mcp-servers/${id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mcpServerKeys.all(workspaceId) }),
  });
}

/** Links (or unlinks) a server to an assistant; that assistant's list is refreshed either way. */
export function useMcpServerLink(assistantId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ serverId, linked }: { serverId: string; linked: boolean }) =>
      api.request(`/agents/${assistantId}/mcp-servers/${serverId}`, { method: linked ? "POST" : "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mcpServerKeys.ofAssistant(workspaceId, assistantId) }),
  });
}
