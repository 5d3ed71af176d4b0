import { randomBytes, randomUUID } from "node:crypto";
import type { ActiveRoom, RoomParticipant } from "@parley/contract";
import type { Database } from "../../db/client.ts";
import type { NewRoom, Participant, RemovalOutcome, Room, Rooms } from "../../lib/call-runtime.ts";
import { Batcher } from "./batcher.ts";
import {
  activeRoomOf,
  deleteLiveRooms,
  findLiveRoom,
  findLiveRoomOfCall,
  handOverLiveRoom,
  insertLiveRoom,
  othersLiveRooms,
  type StoredRoom,
  saveLiveRoomParticipants,
} from "./live-rooms-across-workspaces.ts";
import type { LiveRoomRow } from "./schema.ts";
import { WriteQueue } from "./write-queue.ts";

/**
 * The registry of active-call rooms (spec §3). A room exists from POST /agents/{id}/call until its
 * call ends. The rooms this process holds (and their running calls) live here, in memory, and are
 * written through to the live_rooms table once the registry is attached to the database, so every
 * process can list them and find which process holds a call. The concurrency limit counts open call
 * logs in the database (every process's calls), so a created room that nobody joins holds its slot
 * only until it expires.
 */

/** Where a room of the workspace is: held by this process, or by another live one. */
export type RoomLocation = { held: "here"; room: Room } | { held: "elsewhere"; row: LiveRoomRow };

/** What a hand-over came to; `no_answer` when the holding process did not answer in time. */
export type HandOverOutcome = "handed_over" | "room_not_found" | "joined" | "no_answer";

/** How the registry reaches the process holding a room (room-control.ts: LISTEN/NOTIFY). */
export interface RoomMessenger {
  requestRemoval(row: LiveRoomRow, identity: string): Promise<RemovalOutcome>;
  requestHandOver(row: LiveRoomRow): Promise<HandOverOutcome>;
}

/** What the registry needs to write its rooms through and read other processes' rooms. */
export interface RoomLink {
  db: Database;
  now(): Date;
  /** The moment before which a room's heartbeat no longer counts. */
  aliveSince(now: Date): Date;
  onError(error: unknown): void;
  /** This node's routing key (NODE_ID), written with each room so a token names the holder's node. */
  routingKey: string | null;
}

/** A Map that reports every change, so participants written by any caller reach the table. */
class ParticipantMap extends Map<string, Participant> {
  onChange: () => void = () => {};

  override set(key: string, value: Participant): this {
    super.set(key, value);
    this.onChange();
    return this;
  }

  override delete(key: string): boolean {
    const had = super.delete(key);
    if (had) this.onChange();
    return had;
  }

  override clear(): void {
    const had = this.size > 0;
    super.clear();
    if (had) this.onChange();
  }
}

export class RoomRegistry implements Rooms {
  /** This process's id in live_rooms.owner_id: one per registry, so test apps in one process stay apart. */
  readonly processId = randomUUID();
  private readonly rooms = new Map<string, Room>();
  private link: RoomLink | null = null;
  private messenger: RoomMessenger | null = null;
  private writes = new WriteQueue(() => {});
  /** Rooms of calls that end together are deleted together. */
  private deletions = new Batcher<string>(async () => {});
  /** Rooms whose participants changed and whose row update has not started yet. */
  private readonly dirty = new Set<string>();

  /** From now on, rooms are written through to the database and other processes' rooms are read. */
  attach(link: RoomLink): void {
    this.link = link;
    this.writes = new WriteQueue(link.onError);
    this.deletions = new Batcher((names) => deleteLiveRooms(link.db, names, this.processId));
  }

  private owner(link: RoomLink) {
    return { ownerId: this.processId, nodeId: link.routingKey };
  }

  /** From now on, rooms held by other processes can be acted on. */
  connect(messenger: RoomMessenger | null): void {
    this.messenger = messenger;
  }

  /** Registers the room of a call whose log (and concurrency slot) already exists. */
  create(input: NewRoom): Room {
    const participants = new ParticipantMap();
    const room: Room = {
      ...input,
      channel: input.channel ?? "web",
      variables: input.variables ?? {},
      name: `call-${randomBytes(6).toString("hex")}`,
      participants,
      call: null,
      joinTimer: null,
    };
    participants.onChange = () => this.participantsChanged(room);
    this.rooms.set(room.name, room);
    this.write(room, (link) => insertLiveRoom(link.db, storedRoom(room), this.owner(link), link.now()));
    return room;
  }

  get(name: string): Room | undefined {
    return this.rooms.get(name);
  }

  /** A room of this workspace, or undefined (another workspace's room is not found either). */
  find(workspaceId: string, name: string): Room | undefined {
    const room = this.rooms.get(name);
    return room?.workspaceId === workspaceId ? room : undefined;
  }

  /** The rooms of the workspace this process holds. */
  inWorkspace(workspaceId: string): Room[] {
    return [...this.rooms.values()].filter((r) => r.workspaceId === workspaceId);
  }

  /** Calls of the workspace this process holds (listAll counts every process's). */
  activeCount(workspaceId: string): number {
    let n = 0;
    for (const room of this.rooms.values()) if (room.workspaceId === workspaceId) n += 1;
    return n;
  }

  all(): Room[] {
    return [...this.rooms.values()];
  }

  remove(room: Room): void {
    if (room.joinTimer) clearTimeout(room.joinTimer);
    room.joinTimer = null;
    if (this.rooms.get(room.name) !== room) return;
    this.rooms.delete(room.name);
    this.dirty.delete(room.name);
    this.write(room, () => this.deletions.add(room.name));
  }

  /**
   * The workspace's rooms on every live process: this process's from memory (always current), the
   * others' from the table.
   */
  async listAll(workspaceId: string): Promise<ActiveRoom[]> {
    const here = this.inWorkspace(workspaceId).map(toActiveRoom);
    if (!this.link) return here;
    const { db, now, aliveSince } = this.link;
    const elsewhere = await othersLiveRooms(db, { workspaceId }, this.processId, aliveSince(now()));
    const all = [...here, ...elsewhere.filter((row) => !this.rooms.has(row.name)).map(activeRoomOf)];
    return all.sort((a, b) => a.started_at.localeCompare(b.started_at));
  }

  /** Finds a room of the workspace on any live process; undefined when none has it. */
  async locate(workspaceId: string, name: string): Promise<RoomLocation | undefined> {
    const room = this.find(workspaceId, name);
    if (room) return { held: "here", room };
    if (!this.link) return undefined;
    const { db, now, aliveSince } = this.link;
    const row = await findLiveRoom(db, { workspaceId }, name, aliveSince(now()));
    return row && row.ownerId !== this.processId ? { held: "elsewhere", row } : undefined;
  }

  /**
   * Removes a participant from a room of the workspace wherever it runs: removing either side ends
   * the call (reason `removed`). Resolves once the call's log is written, or with the holder's silence.
   */
  async removeParticipant(workspaceId: string, name: string, identity: string): Promise<RemovalOutcome> {
    const where = await this.locate(workspaceId, name);
    if (!where) return "room_not_found";
    if (where.held === "elsewhere") return this.messenger?.requestRemoval(where.row, identity) ?? "no_answer";
    return this.removeHere(workspaceId, name, identity);
  }

  /** The same, for a room this process holds (a request another process forwarded). */
  async removeHere(workspaceId: string, name: string, identity: string): Promise<RemovalOutcome> {
    const room = this.find(workspaceId, name);
    if (!room) return "room_not_found";
    if (!room.participants.has(identity) || !room.call) return "participant_not_found";
    await room.call.end("removed");
    return "removed";
  }

  /**
   * The room of a call, taken over from the process holding it when nobody has joined it yet: a
   * caller's socket or a phone stream that a load balancer sent to this process runs the call here.
   * Undefined when no live process holds it, or when its caller is already connected elsewhere.
   */
  async claim(workspaceId: string, which: { callId: string } | { room: string }): Promise<Room | undefined> {
    const here = "room" in which ? this.get(which.room) : this.all().find((room) => room.callId === which.callId);
    if (here) return here.workspaceId === workspaceId ? here : undefined;
    if (!this.link || !this.messenger) return undefined;
    const { db, now, aliveSince } = this.link;
    const since = aliveSince(now());
    const row =
      "room" in which
        ? await findLiveRoom(db, { workspaceId }, which.room, since)
        : await findLiveRoomOfCall(db, { workspaceId }, which.callId, since);
    if (!row || row.ownerId === this.processId) return undefined;
    if ((await this.messenger.requestHandOver(row)) !== "handed_over") return undefined;
    const participants = new ParticipantMap();
    const room: Room = {
      name: row.name,
      workspaceId: row.workspaceId,
      agentId: row.agentId,
      agentName: row.agentName,
      callId: row.callId,
      channel: row.channel,
      createdAt: row.createdAt,
      variables: row.variables,
      participants,
      call: null,
      joinTimer: null,
    };
    participants.onChange = () => this.participantsChanged(room);
    this.rooms.set(room.name, room);
    this.write(room, (link) => insertLiveRoom(link.db, storedRoom(room), this.owner(link), link.now()));
    return room;
  }

  /**
   * Gives a room nobody has joined to process `to` (its `claim`): it leaves this registry without
   * closing its log (its join timer goes with it) and its row changes owner.
   */
  async handOver(workspaceId: string, name: string, to: string): Promise<HandOverOutcome> {
    const room = this.find(workspaceId, name);
    if (!room) return "room_not_found";
    if (room.call || room.participants.size > 0) return "joined";
    if (room.joinTimer) clearTimeout(room.joinTimer);
    room.joinTimer = null;
    this.rooms.delete(room.name);
    this.dirty.delete(room.name);
    const link = this.link;
    if (!link) return "handed_over";
    let moved = false;
    // After the room's own pending writes (its insert), so the row exists to change hands.
    await this.writes.push(room.name, async () => {
      // The new holder writes its own node id once it has the room (claim).
      moved = await handOverLiveRoom(link.db, room.name, this.processId, { ownerId: to, nodeId: null }, link.now());
    });
    return moved ? "handed_over" : "room_not_found";
  }

  /** Resolves once every write-through queued so far has reached the database (shutdown, tests). */
  written(name: string): Promise<void> {
    return this.writes.drained(name);
  }

  settled(): Promise<void> {
    return this.writes.settled();
  }

  private participantsChanged(room: Room): void {
    if (this.rooms.get(room.name) !== room || this.dirty.has(room.name)) return;
    this.dirty.add(room.name);
    // Read when the update runs, so a burst of changes is one statement.
    this.write(room, (link) => {
      this.dirty.delete(room.name);
      return saveLiveRoomParticipants(link.db, room.name, this.processId, participantsOf(room));
    });
  }

  private write(room: Room, run: (link: RoomLink) => Promise<void>): void {
    const link = this.link;
    if (link) void this.writes.push(room.name, () => run(link));
  }
}

function storedRoom(room: Room): StoredRoom {
  const { name, workspaceId, agentId, agentName, callId, channel, createdAt, variables } = room;
  return {
    name,
    workspaceId,
    agentId,
    agentName,
    callId,
    channel,
    createdAt,
    variables,
    participants: participantsOf(room),
  };
}

function participantsOf(room: Room): RoomParticipant[] {
  return [...room.participants.values()].map((p) => ({
    identity: p.identity,
    name: p.name,
    kind: p.kind,
    joined_at: p.joinedAt.toISOString(),
  }));
}

export function toActiveRoom(room: Room): ActiveRoom {
  return {
    name: room.name,
    agent_id: room.agentId,
    agent_name: room.agentName,
    call_id: room.callId,
    started_at: room.createdAt.toISOString(),
    participants: participantsOf(room),
  };
}
