import { randomUUID } from "node:crypto";
import {
  WEBHOOK_TEXTS,
  type WebhookDeliveriesQuery,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookEventType,
} from "@parley/contract";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { enqueueJob } from "../../jobs/runner.ts";
import { newestFirst, pagedRows, pageWindow } from "../../lib/paging.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type WebhookDeliveryRow, webhookDeliveries, webhookEndpoints } from "./schema.ts";

/** The job runner's queue of webhook deliveries; a job carries only its delivery's id. */
export const WEBHOOK_QUEUE = "webhook-delivery";

export type WebhookEventName = WebhookEventType | "test";

/** The JSON body receivers get: one shape for every event. */
export function eventEnvelope(
  workspaceId: string,
  type: WebhookEventName,
  data: Record<string, unknown>,
  now: Date,
): { id: string; body: Record<string, unknown> } {
  const id = randomUUID();
  return { id, body: { id, type, created_at: now.toISOString(), workspace_id: workspaceId, data } };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toWebhookDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    response_status: row.responseStatus,
    response_time_ms: row.responseTimeMs,
    error: row.error,
    next_attempt_at: iso(row.nextAttemptAt),
    last_attempt_at: iso(row.lastAttemptAt),
    created_at: row.createdAt.toISOString(),
    payload: row.payload,
  };
}

/** Writes a pending delivery and its job; `wake` lets a runner in this process start at once. */
export async function queueDelivery(
  db: Executor,
  tenant: TenantScope,
  endpointId: string,
  event: { id: string; type: WebhookEventName; body: Record<string, unknown> },
  now: Date,
): Promise<WebhookDeliveryRow> {
  const [row] = await db
    .insert(webhookDeliveries)
    .values(
      scoped(webhookDeliveries, tenant).values({
        endpointId,
        eventId: event.id,
        eventType: event.type,
        payload: event.body,
        nextAttemptAt: now,
      }),
    )
    .returning();
  if (!row) throw new Error("insert into webhook_deliveries returned no row");
  // Receivers' failures are counted and spaced by the delivery itself (deliver.ts); the runner's own
  // retries only cover an attempt that could not run or be recorded (a database error, a crash).
  await enqueueJob(db, WEBHOOK_QUEUE, { deliveryId: row.id }, { maxAttempts: 5 });
  return row;
}

/** One delivery per enabled endpoint of the workspace that subscribed to the event type. */
export async function fanOutEvent(
  db: Executor,
  tenant: TenantScope,
  type: WebhookEventType,
  /** The event's data, or how to build it (read only when some endpoint wants the event). */
  data: Record<string, unknown> | (() => Promise<Record<string, unknown>>),
  now: Date,
): Promise<number> {
  const endpoints = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      scoped(webhookEndpoints, tenant).where(
        eq(webhookEndpoints.enabled, true),
        sql`${webhookEndpoints.events} @> ${JSON.stringify([type])}::jsonb`,
      ),
    );
  if (endpoints.length === 0) return 0;
  const built = typeof data === "function" ? await data() : data;
  const event = { ...eventEnvelope(tenant.workspaceId, type, built, now), type };
  for (const endpoint of endpoints) await queueDelivery(db, tenant, endpoint.id, event, now);
  return endpoints.length;
}

export async function listDeliveries(
  db: Executor,
  tenant: TenantScope,
  endpointId: string,
  query: { page: number; items_per_page: number; status?: WebhookDeliveriesQuery["status"] },
): Promise<WebhookDeliveryPage> {
  const where = scoped(webhookDeliveries, tenant).where(
    eq(webhookDeliveries.endpointId, endpointId),
    query.status ? eq(webhookDeliveries.status, query.status) : undefined,
  );
  const { rows, total } = await pagedRows(
    db,
    webhookDeliveries,
    where,
    newestFirst(webhookDeliveries),
    pageWindow(query),
  );
  return {
    items: rows.map(toWebhookDelivery),
    total,
    page: query.page,
    items_per_page: query.items_per_page,
  };
}

/** Sends a delivery's event again as a new delivery (same event id and body, fresh attempts). */
export async function resendDelivery(
  db: Executor,
  tenant: TenantScope,
  endpointId: string,
  deliveryId: string,
  now: Date,
): Promise<WebhookDeliveryRow> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(
      scoped(webhookDeliveries, tenant).where(
        and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)),
      ),
    );
  const original = found(row, WEBHOOK_TEXTS.deliveryNotFound);
  return queueDelivery(
    db,
    tenant,
    endpointId,
    { id: original.eventId, type: original.eventType, body: original.payload },
    now,
  );
}
