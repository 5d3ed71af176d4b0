import type { AssistantFields } from "@parley/contract";
import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { workspaces } from "../workspaces/schema.ts";

/**
 * Assistants ("agents"). The name is a column (listing, search); every other field of spec §3
 * lives in `config`, validated by the contract's AssistantFields on the way in, so adding a
 * behaviour field needs no migration.
 */
export const agents = pgTable(
  "agents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    temp: boolean("temp").notNull().default(false),
    config: jsonb("config").$type<Omit<AssistantFields, "name">>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("agents_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export type AgentRow = typeof agents.$inferSelect;
