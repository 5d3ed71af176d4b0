import { type Assistant, type AssistantConfig, AssistantFields } from "@parley/contract";
import { count, eq, ilike, type SQLWrapper, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { preparedFor, UNNAMED_STATEMENT } from "../../db/prepared.ts";
import { newestFirst } from "../../lib/paging.ts";
import { BOUND_TENANT, found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type AgentRow, agents } from "./schema.ts";

export type { AgentRow };

/**
 * Every field's default, under what a stored config holds: `config` keeps the fields as they were
 * validated when the assistant was saved, so a field added to the contract since then reads as its
 * default instead of being missing.
 */
export const FIELD_DEFAULTS: Omit<AssistantFields, "name"> = (() => {
  const { name: _name, ...defaults } = AssistantFields.parse({ name: "-" });
  return defaults;
})();
const FIELD_DEFAULTS_JSON = JSON.stringify(FIELD_DEFAULTS);

/** The API shape of a stored assistant: its config fields plus identity and timestamps. */
export function toAssistant(row: AgentRow): Assistant {
  return {
    ...FIELD_DEFAULTS,
    ...row.config,
    name: row.name,
    id: row.id,
    temp: row.temp,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A timestamp as `Date.toISOString()` writes it (UTC, milliseconds). */
const isoTimestamp = (column: SQLWrapper) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** LIKE wildcards in a user's search are literal characters. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The workspace's assistants, newest first, without temporary ones (spec §7), as the JSON text of
 * the response: the database writes it (`toAssistant` in SQL: defaults, then the config, then
 * identity and timestamps), so the list is neither parsed into objects nor serialised again here.
 * With 50 assistants that was most of the request's time on the server's own thread (issue 18);
 * on PostgreSQL the work moves to the database's process. The route test checks that every item
 * equals what GET /agents/{id} answers for it.
 */
const listItemJson = sql`${FIELD_DEFAULTS_JSON}::jsonb || ${agents.config} || jsonb_build_object(
  'name', ${agents.name}, 'id', ${agents.id}, 'temp', ${agents.temp},
  'created_at', ${isoTimestamp(agents.createdAt)}, 'updated_at', ${isoTimestamp(agents.updatedAt)})`;

/** The list's statement, with or without a name search, built once per database handle (db/prepared.ts). */
const listJsonQuery = (searched: boolean) =>
  preparedFor((db) =>
    db
      .select({
        body: sql<string>`coalesce(jsonb_agg(${listItemJson} order by ${agents.createdAt} desc, ${agents.id} desc), '[]'::jsonb)::text`,
      })
      .from(agents)
      .where(
        scoped(agents, BOUND_TENANT).where(
          eq(agents.temp, false),
          searched ? ilike(agents.name, sql.placeholder("pattern")) : undefined,
        ),
      )
      .prepare(UNNAMED_STATEMENT),
  );
const listJson = listJsonQuery(false);
const searchJson = listJsonQuery(true);

/** An assistant's configuration in its API shape: everything but its id, temp flag and timestamps. */
export function configOf(assistant: Assistant): AssistantConfig {
  const { id: _id, temp: _temp, created_at: _c, updated_at: _u, ...config } = assistant;
  return config;
}

export async function listAssistantsJson(db: Executor, tenant: TenantScope, search?: string): Promise<string> {
  const term = search?.trim();
  const [row] = term
    ? await searchJson(db).execute({ workspaceId: tenant.workspaceId, pattern: likePattern(term) })
    : await listJson(db).execute({ workspaceId: tenant.workspaceId });
  return row?.body ?? "[]";
}

/** The workspace's assistants as objects, newest first, without temporary ones. */
export async function listAssistants(db: Executor, tenant: TenantScope, search?: string): Promise<Assistant[]> {
  const term = search?.trim();
  const rows = await db
    .select()
    .from(agents)
    .where(
      scoped(agents, tenant).where(eq(agents.temp, false), term ? ilike(agents.name, likePattern(term)) : undefined),
    )
    .orderBy(...newestFirst(agents));
  return rows.map(toAssistant);
}

async function findAgentRow(db: Executor, tenant: TenantScope, id: string): Promise<AgentRow | undefined> {
  const [row] = await db
    .select()
    .from(agents)
    .where(scoped(agents, tenant).where(eq(agents.id, id)));
  return row;
}

/**
 * An assistant of the tenant's workspace (temporary ones included), else 404: every module that
 * acts on an assistant by id (functions, MCP servers, calls…) checks it through this.
 */
export async function requireAgent(db: Executor, tenant: TenantScope, id: string): Promise<AgentRow> {
  return found(await findAgentRow(db, tenant, id), "Assistant not found.");
}

/** An assistant of the workspace, or undefined once it has been deleted (a call in progress). */
export async function findAssistant(db: Executor, tenant: TenantScope, id: string): Promise<Assistant | undefined> {
  const row = await findAgentRow(db, tenant, id);
  return row ? toAssistant(row) : undefined;
}

/** How many (non-temporary) assistants the workspace holds. */
export async function countAssistants(db: Executor, tenant: TenantScope): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(agents)
    .where(scoped(agents, tenant).where(eq(agents.temp, false)));
  return Number(row?.n ?? 0);
}

/** Writes a new assistant's row (its version 1 is written beside it by the caller, in the same transaction). */
export async function insertAssistant(
  db: Executor,
  tenant: TenantScope,
  fields: AssistantFields & { temp: boolean },
): Promise<AgentRow> {
  const { name, temp, ...config } = fields;
  const [row] = await db.insert(agents).values(scoped(agents, tenant).values({ name, temp, config })).returning();
  if (!row) throw new Error("insert into agents returned no row");
  return row;
}

/** Deletes an assistant; rows of other modules that point at it go with it (foreign keys cascade). */
export async function deleteAssistant(db: Executor, tenant: TenantScope, id: string): Promise<void> {
  const deleted = await db
    .delete(agents)
    .where(scoped(agents, tenant).where(eq(agents.id, id)))
    .returning({ id: agents.id });
  found(deleted[0], "Assistant not found.");
}
