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
import { errorResponses as errors } from "../../lib/error-responses.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
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

const IdParams = z.object({ id: z.uuid() });
const AgentServerParams = z.object({ id: z.uuid(), serverId: z.uuid() });

export async function mcpRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const tags = ["mcp-servers"];
  const scoped = tenantRoute(app);

  r.get(
    "/mcp-servers",
    {
      ...scoped,
      schema: {
        tags,
        summary: "The workspace's MCP servers, newest first",
        querystring: McpServerListQuery,
        response: { 200: McpServerListResponse, ...errors },
      },
    },
    async (request) => {
      const { rows, total } = await listMcpServers(db, tenantOf(request), request.query);
      return { mcp_servers: rows.map((row) => toMcpServer(ctx, row)), total };
    },
  );

  r.post(
    "/mcp-servers",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Add an MCP server (it is connected to first; 422 when that fails)",
        body: CreateMcpServerBody,
        response: { 201: McpServerResponse, ...errors },
      },
    },
    async (request, reply) => {
      const row = await createMcpServer(ctx, tenantOf(request), request.body);
      return reply.code(201).send({ mcp_server: toMcpServer(ctx, row) });
    },
  );

  r.get(
    "/mcp-servers/:id",
    {
      ...scoped,
      schema: { tags, summary: "One MCP server", params: IdParams, response: { 200: McpServerResponse, ...errors } },
    },
    async (request) => ({
      mcp_server: toMcpServer(ctx, await requireMcpServer(db, tenantOf(request), request.params.id)),
    }),
  );

  r.put(
    "/mcp-servers/:id",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Change an MCP server (reconnected first; 422 when that fails)",
        params: IdParams,
        body: UpdateMcpServerBody,
        response: { 200: McpServerResponse, ...errors },
      },
    },
    async (request) => {
      const row = await updateMcpServer(ctx, tenantOf(request), request.params.id, request.body);
      return { mcp_server: toMcpServer(ctx, row) };
    },
  );

  r.delete(
    "/mcp-servers/:id",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Remove an MCP server",
        params: IdParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      await deleteMcpServer(db, tenantOf(request), request.params.id);
      return { message: "MCP server deleted." };
    },
  );

  r.get(
    "/mcp-servers/:id/tools",
    {
      ...scoped,
      schema: {
        tags,
        summary: "The tools the server offers now (422 when it cannot be reached)",
        params: IdParams,
        response: { 200: McpToolsResponse, ...errors },
      },
    },
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
    {
      ...scoped,
      schema: {
        tags,
        summary: "MCP servers linked to an assistant",
        params: IdParams,
        response: { 200: AgentMcpServersResponse, ...errors },
      },
    },
    async (request) => {
      const rows = await requireAgentMcpServers(db, tenantOf(request), request.params.id);
      return { mcp_servers: rows.map((row) => toMcpServer(ctx, row)) };
    },
  );

  r.post(
    "/agents/:id/mcp-servers/:serverId",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Link an MCP server to an assistant",
        params: AgentServerParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      await linkMcpServer(db, tenantOf(request), request.params.id, request.params.serverId);
      return { message: "MCP server assigned." };
    },
  );

  r.delete(
    "/agents/:id/mcp-servers/:serverId",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Unlink an MCP server from an assistant",
        params: AgentServerParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      await unlinkMcpServer(db, tenantOf(request), request.params.id, request.params.serverId);
      return { message: "MCP server unassigned." };
    },
  );
}
