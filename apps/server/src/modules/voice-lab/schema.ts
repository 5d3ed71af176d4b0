import { CLONE_SERVICES } from "@parley/contract";
import { boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { workspaces } from "../workspaces/schema.ts";

/**
 * Voice clones made at a vendor (one of CLONE_SERVICES) from the workspace's recordings. The
 * audio itself lives only at the vendor; this row remembers the vendor's voice id so the clone
 * shows up in that vendor's voice list (spec §9) and can be deleted there.
 */
export const voiceClones = pgTable(
  "voice_clones",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    language: text("language").notNull(),
    isPublic: boolean("is_public").notNull().default(false),
    serviceName: text("service_name", { enum: CLONE_SERVICES }).notNull(),
    serviceVoiceId: text("service_voice_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("voice_clones_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export type VoiceCloneRow = typeof voiceClones.$inferSelect;
