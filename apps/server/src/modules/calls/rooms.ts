import { randomBytes } from "node:crypto";
import type { ActiveRoom, CallEndReason, RoomParticipant } from "@parley/contract";

/**
 * The in-process registry of active-call rooms (spec §3). A room exists from POST /agents/{id}/call
 * until its call ends. The concurrency limit counts open call logs in the database (every process's
 * calls), so a created room that nobody joins holds its slot only until it expires.
 */

export interface Participant {
  identity: string;
  name: string;
  kind: RoomParticipant["kind"];
  joinedAt: Date;
}

/** What a room needs from the call running in it. */
export interface LiveCallHandle {
  /** Ends the call (participant removed, server shutting down); resolves once it is persisted. */
  end(reason: CallEndReason): Promise<void>;
}

export interface Room {
  name: string;
  workspaceId: string;
  agentId: string;
  agentName: string;
  callId: string;
  createdAt: Date;
  participants: Map<string, Participant>;
  /** Set while a caller is connected and the call runs. */
  call: LiveCallHandle | null;
  joinTimer: NodeJS.Timeout | null;
}

export interface NewRoom {
  workspaceId: string;
  agentId: string;
  agentName: string;
  callId: string;
  createdAt: Date;
}

export class RoomRegistry {
  private readonly rooms = new Map<string, Room>();

  /** Registers the room of a call whose log (and concurrency slot) already exists. */
  create(input: NewRoom): Room {
    const room: Room = {
      ...input,
      name: `call-${randomBytes(6).toString("hex")}`,
      participants: new Map(),
      call: null,
      joinTimer: null,
    };
    this.rooms.set(room.name, room);
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

  inWorkspace(workspaceId: string): Room[] {
    return [...this.rooms.values()].filter((r) => r.workspaceId === workspaceId);
  }

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
    if (this.rooms.get(room.name) === room) this.rooms.delete(room.name);
  }
}

export function toActiveRoom(room: Room): ActiveRoom {
  return {
    name: room.name,
    agent_id: room.agentId,
    agent_name: room.agentName,
    call_id: room.callId,
    started_at: room.createdAt.toISOString(),
    participants: [...room.participants.values()].map((p) => ({
      identity: p.identity,
      name: p.name,
      kind: p.kind,
      joined_at: p.joinedAt.toISOString(),
    })),
  };
}
