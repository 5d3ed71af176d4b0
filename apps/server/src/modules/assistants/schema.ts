import type { AssistantFields } from "@parley/contract";
import { boolean, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { timestamps } from "../../lib/table-columns.ts";
import { workspaceRecordKey } from "../workspaces/owned-columns.ts";

/**
 * Assistants ("agents"). The name is a column (listing, search); every other field of spec §3
 * lives in `config`, validated by the contract's AssistantFields on the way in, so adding a
 * behaviour field needs no migration.
 */
export const agents = pgTable(
  "agents",
  {
    ...workspaceRecordKey(),
    name: text("name").notNull(),
    temp: boolean("temp").notNull().default(false),
    config: jsonb("config").$type<Omit<AssistantFields, "name">>().notNull(),
    ...timestamps(),
  },
  (t) => [index("agents_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export type AgentRow = typeof agents.$inferSelect;
