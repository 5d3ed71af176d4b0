import { z } from "zod";
import { MCP_SERVER_DEFAULT_TIMEOUT_SECONDS, MCP_SERVERS_LIST_LIMIT } from "./constants.ts";
import { ToolHeaders, ToolUrl } from "./functions.ts";
import { timestamps } from "./resource-fields.ts";

/**
 * MCP servers (spec §3 "MCP server", §7 "Functions and tool servers", §9 limits): remote tool
 * servers whose tools an assistant's model may call.
 */

/** How to reach the server: "auto" tries Streamable HTTP first and falls back to the older SSE transport. */
export const McpTransport = z.enum(["auto", "streamable-http", "sse"]);
export type McpTransport = z.infer<typeof McpTransport>;

export const MCP_SERVER_MAX_TIMEOUT_SECONDS = 300;

const McpTimeout = z.number().int().min(1).max(MCP_SERVER_MAX_TIMEOUT_SECONDS);

export const CreateMcpServerBody = z.object({
  name: z.string().trim().min(1, "Name is required").max(100),
  description: z.string().trim().max(1000).default(""),
  url: ToolUrl,
  timeout: McpTimeout.default(MCP_SERVER_DEFAULT_TIMEOUT_SECONDS),
  /** Sent with every request (often a token): stored encrypted, shown masked. */
  headers: ToolHeaders.default({}),
  transport: McpTransport.default("auto"),
});
export type CreateMcpServerBody = z.infer<typeof CreateMcpServerBody>;

/**
 * PUT: the fields to change. A header sent back with its masked value (as GET shows it) keeps
 * the stored value, so a form can round-trip what it was given.
 */
export const UpdateMcpServerBody = z.object({
  name: z.string().trim().min(1, "Name is required").max(100).optional(),
  description: z.string().trim().max(1000).optional(),
  url: ToolUrl.optional(),
  timeout: McpTimeout.optional(),
  headers: ToolHeaders.optional(),
  transport: McpTransport.optional(),
});
export type UpdateMcpServerBody = z.infer<typeof UpdateMcpServerBody>;

export const McpServer = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  url: z.string(),
  timeout: z.number().int(),
  /** Header names with masked values. */
  headers: z.record(z.string(), z.string()),
  transport: McpTransport,
  ...timestamps,
});
export type McpServer = z.infer<typeof McpServer>;

export const McpServerListQuery = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MCP_SERVERS_LIST_LIMIT).default(MCP_SERVERS_LIST_LIMIT),
});
export type McpServerListQuery = z.infer<typeof McpServerListQuery>;

export const McpServerListResponse = z.object({ mcp_servers: z.array(McpServer), total: z.number().int() });
export type McpServerListResponse = z.infer<typeof McpServerListResponse>;

export const McpServerResponse = z.object({ mcp_server: McpServer });
export type McpServerResponse = z.infer<typeof McpServerResponse>;

export const AgentMcpServersResponse = z.object({ mcp_servers: z.array(McpServer) });
export type AgentMcpServersResponse = z.infer<typeof AgentMcpServersResponse>;

export const McpTool = z.object({
  name: z.string(),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
});
export type McpTool = z.infer<typeof McpTool>;

export const McpToolsResponse = z.object({ tools: z.array(McpTool) });
export type McpToolsResponse = z.infer<typeof McpToolsResponse>;
