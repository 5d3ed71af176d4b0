import type { CallChannel, RoomParticipant } from "@parley/contract";
import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { workspaces } from "../workspaces/schema.ts";

/**
 * The rooms of the calls in progress, every server process's, so any process can list them and
 * find the one holding a call (spec §7 workspace_rooms, remove_participant). The holding process
 * writes its rooms through (created, a participant joins or leaves, removed) and renews
 * `heartbeat_at`; a row whose heartbeat is stale belongs to a process that died and is ignored,
 * then deleted by the next sweep.
 */
export const liveRooms = pgTable(
  "live_rooms",
  {
    name: text("name").primaryKey(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    agentId: uuid("agent_id").notNull(),
    agentName: text("agent_name").notNull(),
    callId: uuid("call_id").notNull(),
    channel: text("channel").$type<CallChannel>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    /** As the API shows them (wire shape), so a listing needs no mapping. */
    participants: jsonb("participants").$type<RoomParticipant[]>().notNull().default([]),
    /** The call's {{placeholder}} values, so a process that takes the room over has them too. */
    variables: jsonb("variables").$type<Record<string, string>>().notNull().default({}),
    /** The server process holding the call (a random id per process, not a host name). */
    ownerId: text("owner_id").notNull(),
    /** The holder's NODE_ID when it routes sockets (deploy/): the key a room token's socket URL carries. */
    nodeId: text("node_id"),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("live_rooms_workspace_idx").on(t.workspaceId), index("live_rooms_owner_idx").on(t.ownerId)],
);

export type LiveRoomRow = typeof liveRooms.$inferSelect;
