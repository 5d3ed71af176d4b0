import type { Assistant, AssistantFields } from "@parley/contract";
import { and, count, desc, eq, ilike } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { type AgentRow, agents } from "./schema.ts";

/** The API shape of a stored assistant: its config fields plus identity and timestamps. */
export function toAssistant(row: AgentRow): Assistant {
  return {
    ...row.config,
    name: row.name,
    id: row.id,
    temp: row.temp,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** LIKE wildcards in a user's search are literal characters. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The workspace's assistants, newest first, without temporary ones (spec §7). */
export async function listAssistants(db: Executor, workspaceId: string, search?: string): Promise<Assistant[]> {
  const filters = [eq(agents.workspaceId, workspaceId), eq(agents.temp, false)];
  const term = search?.trim();
  if (term) filters.push(ilike(agents.name, likePattern(term)));
  const rows = await db
    .select()
    .from(agents)
    .where(and(...filters))
    .orderBy(desc(agents.createdAt), desc(agents.id));
  return rows.map(toAssistant);
}

export async function findAgentRow(db: Executor, workspaceId: string, id: string): Promise<AgentRow | undefined> {
  const [row] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.workspaceId, workspaceId), eq(agents.id, id)));
  return row;
}

/** An assistant of the workspace (temporary ones included), or undefined: other modules use this. */
export async function findAssistant(db: Executor, workspaceId: string, id: string): Promise<Assistant | undefined> {
  const row = await findAgentRow(db, workspaceId, id);
  return row ? toAssistant(row) : undefined;
}

/** How many (non-temporary) assistants the workspace holds. */
export async function countAssistants(db: Executor, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(agents)
    .where(and(eq(agents.workspaceId, workspaceId), eq(agents.temp, false)));
  return Number(row?.n ?? 0);
}

export async function insertAssistant(
  db: Executor,
  workspaceId: string,
  fields: AssistantFields & { temp: boolean },
): Promise<Assistant> {
  const { name, temp, ...config } = fields;
  const [row] = await db.insert(agents).values({ workspaceId, name, temp, config }).returning();
  if (!row) throw new Error("insert into agents returned no row");
  return toAssistant(row);
}

export async function updateAssistantRow(
  db: Executor,
  row: AgentRow,
  fields: AssistantFields,
  now: Date,
): Promise<Assistant> {
  const { name, ...config } = fields;
  const [updated] = await db
    .update(agents)
    .set({ name, config, updatedAt: now })
    .where(and(eq(agents.workspaceId, row.workspaceId), eq(agents.id, row.id)))
    .returning();
  if (!updated) throw new Error("update of agents returned no row");
  return toAssistant(updated);
}

/** Deletes an assistant; rows of other modules that point at it go with it (foreign keys cascade). */
export async function deleteAssistant(db: Executor, workspaceId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(agents)
    .where(and(eq(agents.workspaceId, workspaceId), eq(agents.id, id)))
    .returning({ id: agents.id });
  return deleted.length > 0;
}
