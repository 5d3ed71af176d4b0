import type { SquadMember } from "@parley/contract";
import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { callSquads, type SquadRow, squads } from "./schema.ts";

/** A call that runs a squad: the squad as it was read when the call started, and the member it starts at. */
export interface CallSquad {
  squad: SquadRow;
  start: SquadMember;
}

/** Records that a call runs a squad, once its room is open and before its caller can join. */
export async function recordCallSquad(
  db: Executor,
  tenant: TenantScope,
  call: { callId: string; squadId: string; member: string },
): Promise<void> {
  await db
    .insert(callSquads)
    .values(
      scoped(callSquads, tenant).values({ callId: call.callId, squadId: call.squadId, startMember: call.member }),
    );
}

/** The squad a call runs; undefined for a call of one assistant, or when the squad was deleted since. */
export async function findCallSquad(db: Executor, tenant: TenantScope, callId: string): Promise<CallSquad | undefined> {
  const [row] = await db
    .select({ squad: squads, startMember: callSquads.startMember })
    .from(callSquads)
    .innerJoin(squads, eq(squads.id, callSquads.squadId))
    .where(scoped(callSquads, tenant).where(eq(callSquads.callId, callId)));
  if (!row) return undefined;
  const start = row.squad.members.find((m) => m.name === row.startMember);
  return start ? { squad: row.squad, start } : undefined;
}
