import type { WebhookDeliveryStatus, WebhookEventType } from "@parley/contract";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamps } from "../../lib/table-columns.ts";
import { workspaceRecordKey } from "../workspaces/owned-columns.ts";

/** Where a workspace's events go. `secret` is sealed by SecretBox (shown on request, rotatable). */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    ...workspaceRecordKey(),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    events: jsonb("events").$type<WebhookEventType[]>().notNull(),
    secret: text("secret").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    ...timestamps(),
  },
  (t) => [index("webhook_endpoints_workspace_idx").on(t.workspaceId)],
);

/**
 * One event sent to one endpoint: the delivery log. The body is kept so every attempt and a
 * resend send the same bytes' content; the job runner only carries the delivery's id.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    ...workspaceRecordKey(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: uuid("event_id").notNull(),
    eventType: text("event_type").$type<WebhookEventType | "test">().notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    responseStatus: integer("response_status"),
    responseTimeMs: integer("response_time_ms"),
    error: text("error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt)],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
