import type { PiiRedactionMode } from "@parley/contract";
import { boolean, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { workspaceIdColumn } from "../workspaces/owned-columns.ts";

/** A workspace's retention: days per kind of data (null: keep), the zero-retention switch and PII redaction. */
export const privacySettings = pgTable("privacy_settings", {
  workspaceId: workspaceIdColumn().primaryKey(),
  recordingsDays: integer("recordings_days"),
  transcriptsDays: integer("transcripts_days"),
  toolCallsDays: integer("tool_calls_days"),
  analysisDays: integer("analysis_days"),
  webhookBodiesDays: integer("webhook_bodies_days"),
  documentFilesDays: integer("document_files_days"),
  zeroRetention: boolean("zero_retention").notNull().default(false),
  piiRedaction: text("pii_redaction").$type<PiiRedactionMode>().notNull().default("off"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type PrivacySettingsRow = typeof privacySettings.$inferSelect;
