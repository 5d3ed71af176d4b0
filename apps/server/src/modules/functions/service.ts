import type { CreateFunctionBody, ToolFunction, UpdateFunctionBody } from "@parley/contract";
import type { ToolSpec } from "@parley/engine";
import { asc, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { deleteRow, requireRow } from "../../lib/scoped-rows.ts";
import { maskHeaders, movesHost, openHeaders, sealHeaders, updatedHeaders } from "../../lib/secret-headers.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { isUniqueViolation } from "../../lib/unique-violation.ts";
import { assistantLinks } from "../assistants/assistant-links.ts";
import { requireAgent } from "../assistants/service.ts";
import { agentFunctions, type FunctionRow, functions } from "./schema.ts";

// Start-up work over every workspace lives apart; tests reach it through this module too.
export { sealPlainFunctionHeaders } from "./header-sealing-across-workspaces.ts";
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
  return requireRow(db, functions, tenant, id, FUNCTION_NOT_FOUND);
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

export async function deleteFunction(db: Executor, tenant: TenantScope, id: string): Promise<void> {
  await deleteRow(db, functions, tenant, id, FUNCTION_NOT_FOUND);
}

const functionLinks = assistantLinks(agentFunctions, "functionId", functions, requireFunction);

/** The functions assigned to an assistant of the workspace (the call engine offers these as tools). */
export async function listAgentFunctions(db: Executor, tenant: TenantScope, agentId: string): Promise<FunctionRow[]> {
  return functionLinks.linkedTo(db, tenant, agentId, [asc(functions.name)]);
}

export async function requireAgentFunctions(db: Executor, tenant: TenantScope, agentId: string) {
  await requireAgent(db, tenant, agentId);
  return listAgentFunctions(db, tenant, agentId);
}

export const assignFunction = functionLinks.link;
export const unassignFunction = functionLinks.unlink;

/**
 * The workspace's functions of the given ids, by name: what a call of an assistant version offers
 * (the ids it was published with, issue 30). Ids deleted since are simply not returned.
 */
export async function listFunctionsByIds(db: Executor, tenant: TenantScope, ids: string[]): Promise<FunctionRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(functions)
    .where(scoped(functions, tenant).where(inArray(functions.id, ids)))
    .orderBy(asc(functions.name));
}
