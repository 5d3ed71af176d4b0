import { CLONE_SERVICES } from "@parley/contract";
import { boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "../../lib/table-columns.ts";
import { workspaceRecordKey } from "../workspaces/owned-columns.ts";

/**
 * Voice clones made at a vendor (one of CLONE_SERVICES) from the workspace's recordings. The
 * audio itself lives only at the vendor; this row remembers the vendor's voice id so the clone
 * shows up in that vendor's voice list (spec §9) and can be deleted there.
 */
export const voiceClones = pgTable(
  "voice_clones",
  {
    ...workspaceRecordKey(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    language: text("language").notNull(),
    isPublic: boolean("is_public").notNull().default(false),
    serviceName: text("service_name", { enum: CLONE_SERVICES }).notNull(),
    serviceVoiceId: text("service_voice_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("voice_clones_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export type VoiceCloneRow = typeof voiceClones.$inferSelect;
