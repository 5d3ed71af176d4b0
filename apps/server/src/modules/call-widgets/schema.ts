import type { WidgetAppearance } from "@parley/contract";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamps } from "../../lib/table-columns.ts";
import { agents } from "../assistants/schema.ts";
import { squads } from "../squads/schema.ts";
import { workspaceRecordKey } from "../workspaces/owned-columns.ts";

/**
 * Call widgets. `public_key` is what the embedding page names (not a secret: it is in the page's
 * HTML); the origin allow-list and the limits are what protect the workspace. A widget belongs to one
 * assistant and goes with it.
 */
export const callWidgets = pgTable(
  "call_widgets",
  {
    ...workspaceRecordKey(),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    /** Calls start at this squad's first member instead (issue 31); a deleted squad falls back to the assistant. */
    squadId: uuid("squad_id").references(() => squads.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    publicKey: text("public_key").notNull(),
    appearance: jsonb("appearance").$type<WidgetAppearance>().notNull(),
    allowedOrigins: jsonb("allowed_origins").$type<string[]>().notNull().default([]),
    /** Null: half the workspace's concurrent calls, at least one (widgetCallCap). */
    maxConcurrentCalls: integer("max_concurrent_calls"),
    callsPerVisitorPerHour: integer("calls_per_visitor_per_hour").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("call_widgets_public_key_idx").on(t.publicKey),
    index("call_widgets_workspace_idx").on(t.workspaceId, t.createdAt),
  ],
);

/**
 * One row per call a widget started (or is starting): what the per-widget and per-visitor limits
 * count. `call_id` is null while the room is being opened; `visitor_key` is a keyed hash of the
 * visitor's IP address (the address itself is not kept).
 */
export const widgetCalls = pgTable(
  "widget_calls",
  {
    ...workspaceRecordKey(),
    widgetId: uuid("widget_id")
      .notNull()
      .references(() => callWidgets.id, { onDelete: "cascade" }),
    callId: uuid("call_id"),
    visitorKey: text("visitor_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("widget_calls_widget_created_idx").on(t.widgetId, t.createdAt),
    index("widget_calls_visitor_idx").on(t.widgetId, t.visitorKey, t.createdAt),
  ],
);

export type CallWidgetRow = typeof callWidgets.$inferSelect;
