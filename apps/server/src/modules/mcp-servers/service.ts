import type { CreateMcpServerBody, McpServer, McpServerListQuery, UpdateMcpServerBody } from "@parley/contract";
import { asc, desc, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { pagedRows } from "../../lib/paging.ts";
import { deleteRow, requireRow } from "../../lib/scoped-rows.ts";
import { maskHeaders, movesHost, sealHeaders, updatedHeaders } from "../../lib/secret-headers.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { assistantLinks } from "../assistants/assistant-links.ts";
import { requireAgent } from "../assistants/service.ts";
import { listToolsAt, McpConnectionError, type McpTarget, serverTarget } from "./client.ts";
import { agentMcpServers, type McpServerRow, mcpServers } from "./schema.ts";

export type { McpServerRow };

export function toMcpServer(ctx: Pick<AppContext, "secrets">, row: McpServerRow): McpServer {
  const headers = serverTarget(ctx, row).headers;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    url: row.url,
    timeout: row.timeout,
    headers: maskHeaders(headers),
    transport: row.transport,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const SERVER_NOT_FOUND = "MCP server not found.";

export async function requireMcpServer(db: Executor, tenant: TenantScope, id: string): Promise<McpServerRow> {
  return requireRow(db, mcpServers, tenant, id, SERVER_NOT_FOUND);
}

export async function listMcpServers(db: Executor, tenant: TenantScope, page: McpServerListQuery) {
  return pagedRows(
    db,
    mcpServers,
    scoped(mcpServers, tenant).where(),
    [desc(mcpServers.createdAt), asc(mcpServers.id)],
    { offset: page.skip, limit: page.limit },
  );
}

/** Saving a server that cannot be reached helps nobody: connect and list its tools first (422 if that fails). */
async function assertReachable(ctx: AppContext, target: McpTarget): Promise<void> {
  try {
    await listToolsAt(ctx, target);
  } catch (error) {
    if (error instanceof McpConnectionError) throw new AppError("validation", error.message);
    throw error;
  }
}

export async function createMcpServer(ctx: AppContext, tenant: TenantScope, body: CreateMcpServerBody) {
  await assertReachable(ctx, body);
  const [row] = await ctx.db
    .insert(mcpServers)
    .values(scoped(mcpServers, tenant).values({ ...body, headers: sealHeaders(ctx.secrets, body.headers) }))
    .returning();
  if (!row) throw new Error("insert into mcp_servers returned no row");
  return row;
}

export async function updateMcpServer(ctx: AppContext, tenant: TenantScope, id: string, body: UpdateMcpServerBody) {
  const row = await requireMcpServer(ctx.db, tenant, id);
  const current = serverTarget(ctx, row);
  const update = updatedHeaders(current.headers, body.headers, movesHost(current.url, body.url));
  if ("problem" in update) throw new AppError("validation", update.problem);
  const { headers } = update;
  const next: McpTarget = {
    url: body.url ?? current.url,
    timeout: body.timeout ?? current.timeout,
    transport: body.transport ?? current.transport,
    headers,
  };
  await assertReachable(ctx, next);
  const [updated] = await ctx.db
    .update(mcpServers)
    .set({
      ...next,
      name: body.name ?? row.name,
      description: body.description ?? row.description,
      headers: sealHeaders(ctx.secrets, headers),
      updatedAt: ctx.now(),
    })
    .where(scoped(mcpServers, tenant).where(eq(mcpServers.id, id)))
    .returning();
  return found(updated, SERVER_NOT_FOUND);
}

export async function deleteMcpServer(db: Executor, tenant: TenantScope, id: string): Promise<void> {
  await deleteRow(db, mcpServers, tenant, id, SERVER_NOT_FOUND);
}

const serverLinks = assistantLinks(agentMcpServers, "mcpServerId", mcpServers, requireMcpServer);

/** The MCP servers linked to an assistant of the workspace (the call engine offers their tools). */
export async function listAgentMcpServers(db: Executor, tenant: TenantScope, agentId: string): Promise<McpServerRow[]> {
  return serverLinks.linkedTo(db, tenant, agentId, [asc(mcpServers.name)]);
}

export async function requireAgentMcpServers(db: Executor, tenant: TenantScope, agentId: string) {
  await requireAgent(db, tenant, agentId);
  return listAgentMcpServers(db, tenant, agentId);
}

export const linkMcpServer = serverLinks.link;
export const unlinkMcpServer = serverLinks.unlink;

/**
 * The workspace's MCP servers of the given ids, by name: what a call of an assistant version offers
 * (the ids it was published with, issue 30). Ids deleted since are simply not returned.
 */
export async function listMcpServersByIds(db: Executor, tenant: TenantScope, ids: string[]): Promise<McpServerRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(mcpServers)
    .where(scoped(mcpServers, tenant).where(inArray(mcpServers.id, ids)))
    .orderBy(asc(mcpServers.name));
}
