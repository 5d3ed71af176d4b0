import type { SquadContext, SquadHandoff, SquadMember } from "@parley/contract";
import { integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamps } from "../../lib/table-columns.ts";
import { workspaceIdColumn, workspaceRecordKey } from "../workspaces/owned-columns.ts";

/**
 * Squads (issue 31). Members and hand-offs are held as JSON with the squad: they are always read
 * and written whole, with the squad. A member's assistant deleted since is found missing when a
 * call reaches it (its hand-off tool answers the model an error).
 */
export const squads = pgTable(
  "squads",
  {
    ...workspaceRecordKey(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    members: jsonb("members").$type<SquadMember[]>().notNull(),
    handoffs: jsonb("handoffs").$type<SquadHandoff[]>().notNull(),
    context: jsonb("context").$type<SquadContext>().notNull(),
    bridgeLine: text("bridge_line"),
    maxHandoffs: integer("max_handoffs").notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex("squads_workspace_name_idx").on(t.workspaceId, t.name)],
);

/**
 * The squad a call runs, recorded when its room opens (like call_versions) so the session reads it
 * on whichever node the caller joins.
 */
export const callSquads = pgTable("call_squads", {
  callId: uuid("call_id").primaryKey(),
  workspaceId: workspaceIdColumn(),
  squadId: uuid("squad_id").references(() => squads.id, { onDelete: "set null" }),
  /** The member the call starts at (a test call may start at any). */
  startMember: text("start_member").notNull(),
});

export type SquadRow = typeof squads.$inferSelect;
