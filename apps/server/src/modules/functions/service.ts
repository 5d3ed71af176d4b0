import type { CreateFunctionBody, ToolFunction, UpdateFunctionBody } from "@parley/contract";
import type { ToolSpec } from "@parley/engine";
import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { isUniqueViolation } from "../../lib/unique-violation.ts";
import { findAgentRow } from "../assistants/service.ts";
import { agentFunctions, type FunctionRow, functions } from "./schema.ts";

export function toToolFunction(row: FunctionRow): ToolFunction {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    parameters: row.parameters,
    url: row.url,
    method: row.method,
    headers: row.headers,
    timeout: row.timeout,
    has_secret: row.secret !== null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The function as the model sees it. */
export function functionToolSpec(row: FunctionRow): ToolSpec {
  return { name: row.name, description: row.description, parameters: row.parameters };
}

const nameTaken = (name: string) => new AppError("conflict", `A function named "${name}" already exists.`);
const functionNotFound = () => new AppError("not_found", "Function not found.");

export async function listFunctions(db: Executor, workspaceId: string): Promise<FunctionRow[]> {
  return db.select().from(functions).where(eq(functions.workspaceId, workspaceId)).orderBy(asc(functions.name));
}

export async function requireFunction(db: Executor, workspaceId: string, id: string): Promise<FunctionRow> {
  const [row] = await db
    .select()
    .from(functions)
    .where(and(eq(functions.workspaceId, workspaceId), eq(functions.id, id)));
  if (!row) throw functionNotFound();
  return row;
}

async function requireAgent(db: Executor, workspaceId: string, agentId: string) {
  if (!(await findAgentRow(db, workspaceId, agentId))) throw new AppError("not_found", "Assistant not found.");
}

export async function createFunction(ctx: AppContext, workspaceId: string, body: CreateFunctionBody) {
  try {
    const [row] = await ctx.db
      .insert(functions)
      .values({
        workspaceId,
        name: body.name,
        description: body.description,
        parameters: body.parameters,
        url: body.url,
        method: body.method,
        headers: body.headers,
        timeout: body.timeout,
        secret: body.secret ? ctx.secrets.encrypt(body.secret) : null,
      })
      .returning();
    if (!row) throw new Error("insert into functions returned no row");
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(body.name);
    throw error;
  }
}

/** A missing or empty secret keeps the stored one; null removes it. */
function secretUpdate(ctx: AppContext, secret: string | null | undefined): { secret?: string | null } {
  if (secret === null) return { secret: null };
  return secret ? { secret: ctx.secrets.encrypt(secret) } : {};
}

export async function updateFunction(ctx: AppContext, workspaceId: string, id: string, body: UpdateFunctionBody) {
  await requireFunction(ctx.db, workspaceId, id);
  const { secret, ...fields } = body;
  try {
    const [row] = await ctx.db
      .update(functions)
      .set({ ...fields, ...secretUpdate(ctx, secret), updatedAt: ctx.now() })
      .where(and(eq(functions.workspaceId, workspaceId), eq(functions.id, id)))
      .returning();
    if (!row) throw functionNotFound();
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(body.name ?? "");
    throw error;
  }
}

export async function deleteFunction(db: Executor, workspaceId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(functions)
    .where(and(eq(functions.workspaceId, workspaceId), eq(functions.id, id)))
    .returning({ id: functions.id });
  if (deleted.length === 0) throw functionNotFound();
}

/** The functions assigned to an assistant of the workspace (the call engine offers these as tools). */
export async function listAgentFunctions(db: Executor, workspaceId: string, agentId: string): Promise<FunctionRow[]> {
  const rows = await db
    .select({ fn: functions })
    .from(agentFunctions)
    .innerJoin(functions, eq(functions.id, agentFunctions.functionId))
    .where(and(eq(agentFunctions.agentId, agentId), eq(functions.workspaceId, workspaceId)))
    .orderBy(asc(functions.name));
  return rows.map((r) => r.fn);
}

export async function requireAgentFunctions(db: Executor, workspaceId: string, agentId: string) {
  await requireAgent(db, workspaceId, agentId);
  return listAgentFunctions(db, workspaceId, agentId);
}

/** Both must belong to the workspace; assigning twice changes nothing. */
export async function assignFunction(db: Executor, workspaceId: string, agentId: string, functionId: string) {
  await requireAgent(db, workspaceId, agentId);
  await requireFunction(db, workspaceId, functionId);
  await db.insert(agentFunctions).values({ agentId, functionId }).onConflictDoNothing();
}

export async function unassignFunction(db: Executor, workspaceId: string, agentId: string, functionId: string) {
  await requireAgent(db, workspaceId, agentId);
  await requireFunction(db, workspaceId, functionId);
  await db
    .delete(agentFunctions)
    .where(and(eq(agentFunctions.agentId, agentId), eq(agentFunctions.functionId, functionId)));
}
