import type { ActiveRoom, RoomParticipant } from "@parley/contract";
import { and, eq, gte, inArray, lt, ne } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import type { Room } from "../../lib/call-runtime.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type LiveRoomRow, liveRooms } from "./schema.ts";

/**
 * The live_rooms table: what the process holding a room writes through, and what every process
 * reads to list the workspace's calls and find a call's holder. A row counts only while its
 * heartbeat is fresh (`aliveSince`); older rows belong to a process that died.
 *
 * Across workspaces: a room is named by a globally unique name and held by one process, which
 * writes, renews and removes its rooms by that name and its own id whatever workspace each serves,
 * and sweeps the rooms of dead processes. The workspace's own listing goes through scoped().
 */

/** A room as its row keeps it: what it is, and who is in it. */
export type StoredRoom = Omit<Room, "participants" | "call" | "joinTimer"> & { participants: RoomParticipant[] };

export async function insertLiveRoom(
  db: Executor,
  room: StoredRoom,
  owner: { ownerId: string; nodeId: string | null },
  now: Date,
): Promise<void> {
  await db
    .insert(liveRooms)
    .values({ ...room, ...owner, heartbeatAt: now })
    .onConflictDoUpdate({
      target: liveRooms.name,
      set: { participants: room.participants, ...owner, heartbeatAt: now },
    });
}

export async function saveLiveRoomParticipants(
  db: Executor,
  name: string,
  ownerId: string,
  participants: RoomParticipant[],
): Promise<void> {
  await db
    .update(liveRooms)
    .set({ participants })
    .where(and(eq(liveRooms.name, name), eq(liveRooms.ownerId, ownerId)));
}

export async function deleteLiveRooms(db: Executor, names: string[], ownerId: string): Promise<void> {
  if (names.length === 0) return;
  await db.delete(liveRooms).where(and(inArray(liveRooms.name, names), eq(liveRooms.ownerId, ownerId)));
}

/** The workspace's rooms held by other processes that are alive (this process knows its own better). */
export async function othersLiveRooms(
  db: Executor,
  tenant: TenantScope,
  ownerId: string,
  aliveSince: Date,
): Promise<LiveRoomRow[]> {
  return db
    .select()
    .from(liveRooms)
    .where(scoped(liveRooms, tenant).where(ne(liveRooms.ownerId, ownerId), gte(liveRooms.heartbeatAt, aliveSince)));
}

/** One room of the workspace, whoever holds it, while its holder is alive. */
export async function findLiveRoom(
  db: Executor,
  tenant: TenantScope,
  name: string,
  aliveSince: Date,
): Promise<LiveRoomRow | undefined> {
  const [row] = await db
    .select()
    .from(liveRooms)
    .where(scoped(liveRooms, tenant).where(eq(liveRooms.name, name), gte(liveRooms.heartbeatAt, aliveSince)));
  return row;
}

/** The room of a call, whoever holds it, while its holder is alive. */
export async function findLiveRoomOfCall(
  db: Executor,
  tenant: TenantScope,
  callId: string,
  aliveSince: Date,
): Promise<LiveRoomRow | undefined> {
  const [row] = await db
    .select()
    .from(liveRooms)
    .where(scoped(liveRooms, tenant).where(eq(liveRooms.callId, callId), gte(liveRooms.heartbeatAt, aliveSince)));
  return row;
}

/** Hands a room's row to another process; false when `from` no longer holds it. */
export async function handOverLiveRoom(
  db: Executor,
  name: string,
  from: string,
  to: { ownerId: string; nodeId: string | null },
  now: Date,
) {
  const rows = await db
    .update(liveRooms)
    .set({ ...to, heartbeatAt: now })
    .where(and(eq(liveRooms.name, name), eq(liveRooms.ownerId, from)))
    .returning({ name: liveRooms.name });
  return rows.length > 0;
}

/** This process is alive: one statement renews every room it holds. */
export async function renewLiveRooms(db: Executor, ownerId: string, now: Date): Promise<void> {
  await db.update(liveRooms).set({ heartbeatAt: now }).where(eq(liveRooms.ownerId, ownerId));
}

/**
 * Deletes rooms of dead processes (no heartbeat since `staleBefore`); with null, every room not
 * held by `ownerId` (PGlite: only one process can open the database, so any other row is a leftover).
 */
export async function removeDeadRooms(db: Executor, ownerId: string, staleBefore: Date | null): Promise<number> {
  const dead = staleBefore ? lt(liveRooms.heartbeatAt, staleBefore) : ne(liveRooms.ownerId, ownerId);
  const rows = await db.delete(liveRooms).where(dead).returning({ name: liveRooms.name });
  return rows.length;
}

export function activeRoomOf(row: LiveRoomRow): ActiveRoom {
  return {
    name: row.name,
    agent_id: row.agentId,
    agent_name: row.agentName,
    call_id: row.callId,
    started_at: row.createdAt.toISOString(),
    participants: row.participants,
  };
}
