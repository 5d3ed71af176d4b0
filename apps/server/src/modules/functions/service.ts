import type { CreateFunctionBody, ToolFunction, UpdateFunctionBody } from "@parley/contract";
import type { ToolSpec } from "@parley/engine";
import { and, asc, eq, notLike } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { maskHeaders, movesHost, openHeaders, sealHeaders, updatedHeaders } from "../../lib/secret-headers.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { isUniqueViolation } from "../../lib/unique-violation.ts";
import { requireAgent } from "../assistants/service.ts";
import { agentFunctions, type FunctionRow, functions } from "./schema.ts";

export type { FunctionRow };

export function toToolFunction(ctx: Pick<AppContext, "secrets">, row: FunctionRow): ToolFunction {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    parameters: row.parameters,
    url: row.url,
    method: row.method,
    headers: maskHeaders(openHeaders(ctx.secrets, row.headers)),
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
const FUNCTION_NOT_FOUND = "Function not found.";

export async function listFunctions(db: Executor, tenant: TenantScope): Promise<FunctionRow[]> {
  return db.select().from(functions).where(scoped(functions, tenant).where()).orderBy(asc(functions.name));
}

export async function requireFunction(db: Executor, tenant: TenantScope, id: string): Promise<FunctionRow> {
  const [row] = await db
    .select()
    .from(functions)
    .where(scoped(functions, tenant).where(eq(functions.id, id)));
  return found(row, FUNCTION_NOT_FOUND);
}

export async function createFunction(ctx: AppContext, tenant: TenantScope, body: CreateFunctionBody) {
  try {
    const [row] = await ctx.db
      .insert(functions)
      .values(
        scoped(functions, tenant).values({
          name: body.name,
          description: body.description,
          parameters: body.parameters,
          url: body.url,
          method: body.method,
          headers: sealHeaders(ctx.secrets, body.headers),
          timeout: body.timeout,
          secret: body.secret ? ctx.secrets.encrypt(body.secret) : null,
        }),
      )
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

export async function updateFunction(ctx: AppContext, tenant: TenantScope, id: string, body: UpdateFunctionBody) {
  const current = await requireFunction(ctx.db, tenant, id);
  const { secret, headers: givenHeaders, ...fields } = body;
  // The signing secret may follow a new URL: a signature proves the sender without revealing it.
  const update = updatedHeaders(
    openHeaders(ctx.secrets, current.headers),
    givenHeaders,
    movesHost(current.url, body.url),
  );
  if ("problem" in update) throw new AppError("validation", update.problem);
  try {
    const [row] = await ctx.db
      .update(functions)
      .set({
        ...fields,
        headers: sealHeaders(ctx.secrets, update.headers),
        ...secretUpdate(ctx, secret),
        updatedAt: ctx.now(),
      })
      .where(scoped(functions, tenant).where(eq(functions.id, id)))
      .returning();
    return found(row, FUNCTION_NOT_FOUND);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(body.name ?? "");
    throw error;
  }
}

/**
 * Seals header maps stored in the clear before headers were encrypted (migration 0009 turned the
 * JSON column into text; only the server holds the key, so the sealing happens here, at start-up).
 * Each row is written only if it still holds the plain text read, so concurrent starts agree.
 */
export async function sealPlainFunctionHeaders(ctx: Pick<AppContext, "db" | "secrets">): Promise<number> {
  const plain = await ctx.db
    .select({ id: functions.id, headers: functions.headers })
    .from(functions)
    .where(notLike(functions.headers, "v1.%"));
  for (const row of plain) {
    // The cast left the map's JSON text, which is what a sealed value holds.
    await ctx.db
      .update(functions)
      .set({ headers: ctx.secrets.encrypt(row.headers) })
      .where(and(eq(functions.id, row.id), eq(functions.headers, row.headers)));
  }
  return plain.length;
}

export async function deleteFunction(db: Executor, tenant: TenantScope, id: string): Promise<void> {
  const deleted = await db
    .delete(functions)
    .where(scoped(functions, tenant).where(eq(functions.id, id)))
    .returning({ id: functions.id });
  found(deleted[0], FUNCTION_NOT_FOUND);
}

/** The functions assigned to an assistant of the workspace (the call engine offers these as tools). */
export async function listAgentFunctions(db: Executor, tenant: TenantScope, agentId: string): Promise<FunctionRow[]> {
  const rows = await db
    .select({ fn: functions })
    .from(agentFunctions)
    .innerJoin(functions, eq(functions.id, agentFunctions.functionId))
    .where(scoped(functions, tenant).where(eq(agentFunctions.agentId, agentId)))
    .orderBy(asc(functions.name));
  return rows.map((r) => r.fn);
}

export async function requireAgentFunctions(db: Executor, tenant: TenantScope, agentId: string) {
  await requireAgent(db, tenant, agentId);
  return listAgentFunctions(db, tenant, agentId);
}

/** Both must belong to the workspace; assigning twice changes nothing. */
export async function assignFunction(db: Executor, tenant: TenantScope, agentId: string, functionId: string) {
  await requireAgent(db, tenant, agentId);
  await requireFunction(db, tenant, functionId);
  await db.insert(agentFunctions).values({ agentId, functionId }).onConflictDoNothing();
}

export async function unassignFunction(db: Executor, tenant: TenantScope, agentId: string, functionId: string) {
  await requireAgent(db, tenant, agentId);
  await requireFunction(db, tenant, functionId);
  await db
    .delete(agentFunctions)
    .where(and(eq(agentFunctions.agentId, agentId), eq(agentFunctions.functionId, functionId)));
}
