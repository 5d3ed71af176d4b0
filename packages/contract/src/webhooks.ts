import { z } from "zod";
import { pageQuery } from "./page-query.ts";
import { timestamps } from "./resource-fields.ts";

/**
 * Workspace webhooks (issue 16): endpoints that receive signed JSON events. Every delivery is
 * `POST <url>` with `{ id, type, created_at, workspace_id, data }`, headers `x-parley-event`,
 * `x-parley-delivery`, `x-parley-timestamp` and `x-parley-signature: sha256=<hex>` — HMAC-SHA256
 * with the endpoint's secret over `<timestamp>.<body>`, as function calls are signed.
 */

export const WEBHOOK_EVENTS = [
  "call.started",
  "call.ended",
  "call.transferred",
  /** A squad's member handed the call to another assistant (issue 31). */
  "call.handoff",
  "batch.completed",
  "document.ready",
  "phone_number.updated",
  "test.run.completed",
  "alert.triggered",
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENTS);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** Attempts per delivery, and the wait after each failed one (exponential backoff). */
export const WEBHOOK_MAX_ATTEMPTS = 6;
export const WEBHOOK_RETRY_DELAYS_SECONDS = [30, 120, 600, 1800, 7200] as const;
/** A receiver that does not answer within this is a failed attempt. */
export const WEBHOOK_TIMEOUT_SECONDS = 10;
export const WEBHOOK_MAX_ENDPOINTS = 20;
/** The secret's visible start: secrets are recognisable in a leak. */
export const WEBHOOK_SECRET_PREFIX = "whsec_";

export const WebhookUrl = z
  .url({ protocol: /^https?$/, error: "URL must be an http(s) URL" })
  .max(2048, "URL is too long");

export const WebhookEndpoint = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(WebhookEventType),
  enabled: z.boolean(),
  ...timestamps,
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;
export const WebhookEndpointList = z.array(WebhookEndpoint);
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

const Events = z
  .array(WebhookEventType)
  .min(1, "Choose at least one event")
  .transform((e) => [...new Set(e)]);

export const CreateWebhookBody = z.object({
  url: WebhookUrl,
  description: z.string().trim().max(500).default(""),
  events: Events,
  enabled: z.boolean().default(true),
});
export type CreateWebhookBody = z.input<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z.object({
  url: WebhookUrl.optional(),
  description: z.string().trim().max(500).optional(),
  events: Events.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookBody = z.input<typeof UpdateWebhookBody>;

/** The signing secret: returned when created, when revealed and when rotated. */
export const WebhookSecret = z.object({ secret: z.string() });
export type WebhookSecret = z.infer<typeof WebhookSecret>;

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({ secret: z.string() });
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;

/** pending: waiting for its (next) attempt; succeeded: a 2xx came back; failed: attempts used up or refused. */
export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export const WebhookDeliveryStatus = z.enum(WEBHOOK_DELIVERY_STATUSES);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

export const WebhookDelivery = z.object({
  id: z.uuid(),
  endpoint_id: z.uuid(),
  event_id: z.uuid(),
  event_type: z.union([WebhookEventType, z.literal("test")]),
  status: WebhookDeliveryStatus,
  attempts: z.number().int(),
  /** HTTP status of the last attempt; null when no answer came. */
  response_status: z.number().int().nullable(),
  response_time_ms: z.number().int().nullable(),
  error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  created_at: z.string(),
  /** The JSON body sent (the same on every attempt and resend). */
  payload: z.record(z.string(), z.unknown()),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryPage = z.object({
  items: z.array(WebhookDelivery),
  total: z.number().int(),
  page: z.number().int(),
  items_per_page: z.number().int(),
});
export type WebhookDeliveryPage = z.infer<typeof WebhookDeliveryPage>;

export const WebhookDeliveriesQuery = z.object({
  ...pageQuery(100, 20),
  status: WebhookDeliveryStatus.optional(),
});
export type WebhookDeliveriesQuery = z.input<typeof WebhookDeliveriesQuery>;

export const WEBHOOK_TEXTS = {
  notFound: "Webhook endpoint not found.",
  deliveryNotFound: "Delivery not found.",
  deleted: "Webhook endpoint deleted.",
  tooMany: `A workspace can have at most ${WEBHOOK_MAX_ENDPOINTS} webhook endpoints.`,
  privateAddress: "This URL points to a private or local address. Allow it with PARLEY_ALLOWED_PRIVATE_HOSTS.",
  unresolvable: "The URL's host could not be resolved.",
} as const;
