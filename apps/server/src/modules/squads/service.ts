import type { CreateSquadBody, Squad, SquadMember } from "@parley/contract";
import { asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { deleteRow, findRow, listRows, requireRow } from "../../lib/scoped-rows.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { isUniqueViolation } from "../../lib/unique-violation.ts";
import { findAssistant } from "../assistants/service.ts";
import { type SquadRow, squads } from "./schema.ts";

export type { SquadRow };

export const SQUAD_NOT_FOUND = "Squad not found.";
const nameTaken = (name: string) => new AppError("conflict", `A squad named "${name}" already exists.`);

export function toSquad(row: SquadRow): Squad {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    members: row.members,
    handoffs: row.handoffs,
    context: row.context,
    bridge_line: row.bridgeLine,
    max_handoffs: row.maxHandoffs,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function listSquads(db: Executor, tenant: TenantScope): Promise<SquadRow[]> {
  return listRows(db, squads, tenant, [asc(squads.name)]);
}

export async function requireSquad(db: Executor, tenant: TenantScope, id: string): Promise<SquadRow> {
  return requireRow(db, squads, tenant, id, SQUAD_NOT_FOUND);
}

/** The squad's member that answers first (the schema keeps exactly one). */
export function firstMember(row: Pick<SquadRow, "members">): SquadMember {
  const first = row.members.find((m) => m.first) ?? row.members[0];
  if (!first) throw new Error("a squad without members");
  return first;
}

/** Every member must be an assistant of the workspace: another workspace's id reads as missing. */
async function requireMembers(db: Executor, tenant: TenantScope, members: SquadMember[]): Promise<void> {
  const ids = [...new Set(members.map((m) => m.assistant_id))];
  const found = await Promise.all(ids.map((id) => findAssistant(db, tenant, id)));
  const present = new Set(found.flatMap((assistant) => (assistant ? [assistant.id] : [])));
  const errors = members.flatMap((member, i) =>
    present.has(member.assistant_id)
      ? []
      : [
          {
            field: `members.${i}.assistant_id`,
            message: `No assistant with id ${member.assistant_id} in this workspace.`,
          },
        ],
  );
  if (errors.length > 0) throw new AppError("validation", errors[0]?.message ?? "Unknown assistant", {}, errors);
}

const columnsOf = (body: CreateSquadBody) => ({
  name: body.name,
  description: body.description,
  members: body.members,
  handoffs: body.handoffs,
  context: body.context,
  bridgeLine: body.bridge_line,
  maxHandoffs: body.max_handoffs,
});

export async function createSquad(db: Executor, tenant: TenantScope, body: CreateSquadBody): Promise<SquadRow> {
  await requireMembers(db, tenant, body.members);
  try {
    const [row] = await db
      .insert(squads)
      .values(scoped(squads, tenant).values(columnsOf(body)))
      .returning();
    if (!row) throw new Error("insert into squads returned no row");
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(body.name);
    throw error;
  }
}

export async function updateSquad(
  db: Executor,
  tenant: TenantScope,
  id: string,
  body: CreateSquadBody,
): Promise<SquadRow> {
  await requireSquad(db, tenant, id);
  await requireMembers(db, tenant, body.members);
  try {
    const [row] = await db
      .update(squads)
      .set({ ...columnsOf(body), updatedAt: new Date() })
      .where(scoped(squads, tenant).where(eq(squads.id, id)))
      .returning();
    if (!row) throw new AppError("not_found", SQUAD_NOT_FOUND);
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(body.name);
    throw error;
  }
}

export async function deleteSquad(db: Executor, tenant: TenantScope, id: string): Promise<void> {
  await deleteRow(db, squads, tenant, id, SQUAD_NOT_FOUND);
}

/** The workspace's squads by id (a page of phone numbers naming theirs); others' ids are left out. */
export async function squadsByIds(db: Executor, tenant: TenantScope, ids: string[]): Promise<SquadRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(squads)
    .where(scoped(squads, tenant).where(inArray(squads.id, ids)));
}

/** Where a call to the squad starts: its first member; undefined when the squad is gone. */
export async function squadEntry(
  db: Executor,
  tenant: TenantScope,
  id: string,
): Promise<{ id: string; member: SquadMember } | undefined> {
  const row = await findRow(db, squads, tenant, id);
  return row ? { id: row.id, member: firstMember(row) } : undefined;
}
