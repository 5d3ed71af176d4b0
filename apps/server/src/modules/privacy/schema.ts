import type { AuditAction, AuditDetails } from "@parley/contract";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, uuidPrimaryKey } from "../../lib/table-columns.ts";
import { workspaces } from "../workspaces/schema.ts";
import { workspaceIdColumn } from "../workspaces/owned-columns.ts";

/**
 * Who did what. The actor is copied in (id, email at the time, API key) without a foreign key, so an
 * entry outlives the account or key it names; entries of a deleted workspace go with it. A null
 * workspace is a superuser's action over the whole installation.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuidPrimaryKey(),
    workspaceId: uuid("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    action: text("action").$type<AuditAction>().notNull(),
    actorUserId: uuid("actor_user_id"),
    actorEmail: text("actor_email"),
    actorApiKeyId: uuid("actor_api_key_id"),
    targetType: text("target_type"),
    targetId: text("target_id"),
    ip: text("ip"),
    details: jsonb("details").$type<AuditDetails>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_events_workspace_idx").on(t.workspaceId, t.createdAt),
    index("audit_events_created_idx").on(t.createdAt),
  ],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;

/** A workspace's retention: days per kind of data (null: keep) and the zero-retention switch. */
export const privacySettings = pgTable("privacy_settings", {
  workspaceId: workspaceIdColumn().primaryKey(),
  recordingsDays: integer("recordings_days"),
  transcriptsDays: integer("transcripts_days"),
  toolCallsDays: integer("tool_calls_days"),
  analysisDays: integer("analysis_days"),
  webhookBodiesDays: integer("webhook_bodies_days"),
  documentFilesDays: integer("document_files_days"),
  zeroRetention: boolean("zero_retention").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type PrivacySettingsRow = typeof privacySettings.$inferSelect;
