import type { AuditAction, AuditDetails } from "@parley/contract";
import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, uuidPrimaryKey } from "./table-columns.ts";

/**
 * Who did what. The actor is copied in (id, email at the time, API key) without a foreign key, so an
 * entry outlives the account, key or workspace it names (the log is itself kept). A null workspace
 * is a superuser's action over the whole installation. The table belongs to the foundation, not to a
 * module: every module that acts writes to it, and the foundation names no module.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuidPrimaryKey(),
    workspaceId: uuid("workspace_id"),
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
