import {
  AgentMcpServersResponse,
  CreateMcpServerBody,
  McpServerListQuery,
  McpServerListResponse,
  McpServerResponse,
  McpToolsResponse,
  MessageResponse,
  UpdateMcpServerBody,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../lib/app-error.ts";
import { messageAfter } from "../../lib/message-handler.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { addVersionLinkReader } from "../assistants/version-links.ts";
import { listMcpTools, McpConnectionError } from "./client.ts";
import {
  createMcpServer,
  deleteMcpServer,
  linkMcpServer,
  listMcpServers,
  requireAgentMcpServers,
  requireMcpServer,
  toMcpServer,
  unlinkMcpServer,
  updateMcpServer,
} from "./service.ts";
import { mcpServerVersionLinks } from "./version-links.ts";

const IdParams = z.object({ id: z.uuid() });
const AgentServerParams = z.object({ id: z.uuid(), serverId: z.uuid() });

export async function mcpRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const route = routeOptions(tenantRoute(app), ["mcp-servers"]);
  addVersionLinkReader(mcpServerVersionLinks);

  r.get(
    "/mcp-servers",
    route("The workspace's MCP servers, newest first", {
      querystring: McpServerListQuery,
      response: { 200: McpServerListResponse },
    }),
    async (request) => {
      const { rows, total } = await listMcpServers(db, tenantOf(request), request.query);
      return { mcp_servers: rows.map((row) => toMcpServer(ctx, row)), total };
    },
  );

  r.post(
    "/mcp-servers",
    route("Add an MCP server (it is connected to first; 422 when that fails)", {
      body: CreateMcpServerBody,
      response: { 201: McpServerResponse },
    }),
    async (request, reply) => {
      const row = await createMcpServer(ctx, tenantOf(request), request.body);
      return reply.code(201).send({ mcp_server: toMcpServer(ctx, row) });
    },
  );

  r.get(
    "/mcp-servers/:id",
    route("One MCP server", { params: IdParams, response: { 200: McpServerResponse } }),
    async (request) => ({
      mcp_server: toMcpServer(ctx, await requireMcpServer(db, tenantOf(request), request.params.id)),
    }),
  );

  r.put(
    "/mcp-servers/:id",
    route("Change an MCP server (reconnected first; 422 when that fails)", {
      params: IdParams,
      body: UpdateMcpServerBody,
      response: { 200: McpServerResponse },
    }),
    async (request) => {
      const row = await updateMcpServer(ctx, tenantOf(request), request.params.id, request.body);
      return { mcp_server: toMcpServer(ctx, row) };
    },
  );

  r.delete(
    "/mcp-servers/:id",
    route("Remove an MCP server", { params: IdParams, response: { 200: MessageResponse } }),
    messageAfter("MCP server deleted.", (request) => deleteMcpServer(db, tenantOf(request), request.params.id)),
  );

  r.get(
    "/mcp-servers/:id/tools",
    route("The tools the server offers now (422 when it cannot be reached)", {
      params: IdParams,
      response: { 200: McpToolsResponse },
    }),
    async (request) => {
      const row = await requireMcpServer(db, tenantOf(request), request.params.id);
      try {
        return { tools: await listMcpTools(ctx, row) };
      } catch (error) {
        if (error instanceof McpConnectionError) throw new AppError("validation", error.message);
        throw error;
      }
    },
  );

  r.get(
    "/agents/:id/mcp-servers",
    route("MCP servers linked to an assistant", { params: IdParams, response: { 200: AgentMcpServersResponse } }),
    async (request) => {
      const rows = await requireAgentMcpServers(db, tenantOf(request), request.params.id);
      return { mcp_servers: rows.map((row) => toMcpServer(ctx, row)) };
    },
  );

  r.post(
    "/agents/:id/mcp-servers/:serverId",
    route("Link an MCP server to an assistant", { params: AgentServerParams, response: { 200: MessageResponse } }),
    messageAfter("MCP server assigned.", (request) =>
      linkMcpServer(db, tenantOf(request), request.params.id, request.params.serverId),
    ),
  );

  r.delete(
    "/agents/:id/mcp-servers/:serverId",
    route("Unlink an MCP server from an assistant", { params: AgentServerParams, response: { 200: MessageResponse } }),
    messageAfter("MCP server unassigned.", (request) =>
      unlinkMcpServer(db, tenantOf(request), request.params.id, request.params.serverId),
    ),
  );
}
