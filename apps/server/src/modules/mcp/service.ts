import {
  type CreateMcpServerBody,
  type McpServer,
  type McpServerListQuery,
  maskSecret,
  type UpdateMcpServerBody,
} from "@parley/contract";
import { and, asc, count, desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { findAgentRow } from "../assistants/service.ts";
import { listToolsAt, McpConnectionError, type McpTarget, serverTarget } from "./client.ts";
import { agentMcpServers, type McpServerRow, mcpServers } from "./schema.ts";

export function toMcpServer(ctx: Pick<AppContext, "secrets">, row: McpServerRow): McpServer {
  const headers = serverTarget(ctx, row).headers;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    url: row.url,
    timeout: row.timeout,
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, maskSecret(value)])),
    transport: row.transport,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const serverNotFound = () => new AppError("not_found", "MCP server not found.");

export async function requireMcpServer(db: Executor, workspaceId: string, id: string): Promise<McpServerRow> {
  const [row] = await db
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.workspaceId, workspaceId), eq(mcpServers.id, id)));
  if (!row) throw serverNotFound();
  return row;
}

export async function listMcpServers(db: Executor, workspaceId: string, page: McpServerListQuery) {
  const where = eq(mcpServers.workspaceId, workspaceId);
  const rows = await db
    .select()
    .from(mcpServers)
    .where(where)
    .orderBy(desc(mcpServers.createdAt), asc(mcpServers.id))
    .offset(page.skip)
    .limit(page.limit);
  const [total] = await db.select({ n: count() }).from(mcpServers).where(where);
  return { rows, total: total?.n ?? 0 };
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

export async function createMcpServer(ctx: AppContext, workspaceId: string, body: CreateMcpServerBody) {
  await assertReachable(ctx, body);
  const [row] = await ctx.db
    .insert(mcpServers)
    .values({ workspaceId, ...body, headers: ctx.secrets.encrypt(JSON.stringify(body.headers)) })
    .returning();
  if (!row) throw new Error("insert into mcp_servers returned no row");
  return row;
}

/** A header sent back masked, as GET showed it, keeps its stored value. */
function mergeHeaders(stored: Record<string, string>, given: Record<string, string>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    const old = stored[name];
    merged[name] = old !== undefined && value === maskSecret(old) ? old : value;
  }
  return merged;
}

export async function updateMcpServer(ctx: AppContext, workspaceId: string, id: string, body: UpdateMcpServerBody) {
  const row = await requireMcpServer(ctx.db, workspaceId, id);
  const current = serverTarget(ctx, row);
  const headers = body.headers ? mergeHeaders(current.headers, body.headers) : current.headers;
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
      headers: ctx.secrets.encrypt(JSON.stringify(headers)),
      updatedAt: ctx.now(),
    })
    .where(and(eq(mcpServers.workspaceId, workspaceId), eq(mcpServers.id, id)))
    .returning();
  if (!updated) throw serverNotFound();
  return updated;
}

export async function deleteMcpServer(db: Executor, workspaceId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(mcpServers)
    .where(and(eq(mcpServers.workspaceId, workspaceId), eq(mcpServers.id, id)))
    .returning({ id: mcpServers.id });
  if (deleted.length === 0) throw serverNotFound();
}

async function requireAgent(db: Executor, workspaceId: string, agentId: string) {
  if (!(await findAgentRow(db, workspaceId, agentId))) throw new AppError("not_found", "Assistant not found.");
}

/** The MCP servers linked to an assistant of the workspace (the call engine offers their tools). */
export async function listAgentMcpServers(db: Executor, workspaceId: string, agentId: string): Promise<McpServerRow[]> {
  const rows = await db
    .select({ server: mcpServers })
    .from(agentMcpServers)
    .innerJoin(mcpServers, eq(mcpServers.id, agentMcpServers.mcpServerId))
    .where(and(eq(agentMcpServers.agentId, agentId), eq(mcpServers.workspaceId, workspaceId)))
    .orderBy(asc(mcpServers.name));
  return rows.map((r) => r.server);
}

export async function requireAgentMcpServers(db: Executor, workspaceId: string, agentId: string) {
  await requireAgent(db, workspaceId, agentId);
  return listAgentMcpServers(db, workspaceId, agentId);
}

/** Both must belong to the workspace; linking twice changes nothing. */
export async function linkMcpServer(db: Executor, workspaceId: string, agentId: string, serverId: string) {
  await requireAgent(db, workspaceId, agentId);
  await requireMcpServer(db, workspaceId, serverId);
  await db.insert(agentMcpServers).values({ agentId, mcpServerId: serverId }).onConflictDoNothing();
}

export async function unlinkMcpServer(db: Executor, workspaceId: string, agentId: string, serverId: string) {
  await requireAgent(db, workspaceId, agentId);
  await requireMcpServer(db, workspaceId, serverId);
  await db
    .delete(agentMcpServers)
    .where(and(eq(agentMcpServers.agentId, agentId), eq(agentMcpServers.mcpServerId, serverId)));
}
