import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_SECONDS, WEBHOOK_TIMEOUT_SECONDS } from "@parley/contract";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { BlockedAddressError } from "../../lib/safe-network.ts";
import { scoped } from "../../lib/tenant-scope.ts";
import { webhookSignature } from "../functions/webhook.ts";
import { findDeliveryToRun } from "./deliveries-across-workspaces.ts";
import { type WebhookDeliveryRow, type WebhookEndpointRow, webhookDeliveries } from "./schema.ts";

/** At most this much of a receiver's answer is read (and none of it kept): only the status matters. */
const MAX_RESPONSE_BYTES = 16 * 1024;

interface Attempt {
  ok: boolean;
  status: number | null;
  ms: number;
  error: string | null;
  /** A refusal by the address policy will not change by waiting. */
  final: boolean;
}

/** The wait after failed attempt n (1-based): 30 s, 2 min, 10 min, 30 min, 2 h. */
export function retryDelaySeconds(attempt: number): number {
  const delays = WEBHOOK_RETRY_DELAYS_SECONDS;
  return delays[Math.min(attempt, delays.length) - 1] ?? delays[delays.length - 1] ?? 60;
}

/** The headers of one attempt: signed like function calls (`sha256=` HMAC over `<timestamp>.<body>`). */
export function signedHeaders(
  secret: string,
  delivery: Pick<WebhookDeliveryRow, "id" | "eventType">,
  body: string,
  now: Date,
): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  return {
    "content-type": "application/json",
    "user-agent": "Parley-Webhook/1.0",
    "x-parley-event": delivery.eventType,
    "x-parley-delivery": delivery.id,
    "x-parley-timestamp": timestamp,
    "x-parley-signature": webhookSignature(secret, timestamp, body),
  };
}

async function drain(response: Response): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  let size = 0;
  while (size < MAX_RESPONSE_BYTES) {
    const { done, value } = await reader.read();
    if (done) return;
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
}

function describe(error: unknown, url: string, timedOut: boolean): string {
  if (error instanceof BlockedAddressError) return error.message;
  if (timedOut) return `No answer within ${WEBHOOK_TIMEOUT_SECONDS} seconds.`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return `Could not reach ${new URL(url).origin}: ${cause ?? message}`;
}

/** One POST through the SSRF-safe client; redirects are not followed (a 3xx is a failed attempt). */
async function attempt(ctx: AppContext, endpoint: WebhookEndpointRow, delivery: WebhookDeliveryRow): Promise<Attempt> {
  const body = JSON.stringify(delivery.payload);
  const headers = signedHeaders(ctx.secrets.decrypt(endpoint.secret), delivery, body, ctx.now());
  const timeout = AbortSignal.timeout(WEBHOOK_TIMEOUT_SECONDS * 1000);
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const response = await ctx.network.fetch(endpoint.url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: timeout,
    });
    await drain(response).catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return { ok, status: response.status, ms: ms(), error: ok ? null : `HTTP ${response.status}`, final: false };
  } catch (error) {
    const blocked = error instanceof BlockedAddressError;
    return { ok: false, status: null, ms: ms(), error: describe(error, endpoint.url, timeout.aborted), final: blocked };
  }
}

/**
 * The job of one delivery: one attempt, recorded in the delivery log. A failed attempt asks the
 * runner to run the job again after the backoff (so attempts are ours to count and show), until
 * WEBHOOK_MAX_ATTEMPTS; a disabled or deleted endpoint ends the delivery.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: the runner's JobHandler finishes on void.
export async function runDelivery(ctx: AppContext, deliveryId: string): Promise<void | { again: Date }> {
  const found = await findDeliveryToRun(ctx.db, deliveryId);
  if (!found) return;
  if (found.delivery.status !== "pending") return;
  const { delivery, endpoint } = found;
  if (!endpoint.enabled) {
    await ctx.db
      .update(webhookDeliveries)
      .set({ status: "failed", error: "The endpoint is disabled.", nextAttemptAt: null })
      .where(scoped(webhookDeliveries, delivery).where(eq(webhookDeliveries.id, delivery.id)));
    return;
  }
  const result = await attempt(ctx, endpoint, delivery);
  const attempts = delivery.attempts + 1;
  const now = ctx.now();
  const retry = !result.ok && !result.final && attempts < WEBHOOK_MAX_ATTEMPTS;
  const next = retry ? new Date(Date.now() + retryDelaySeconds(attempts) * 1000) : null;
  await ctx.db
    .update(webhookDeliveries)
    .set({
      status: result.ok ? "succeeded" : retry ? "pending" : "failed",
      attempts,
      responseStatus: result.status,
      responseTimeMs: result.ms,
      error: result.error,
      lastAttemptAt: now,
      nextAttemptAt: next,
    })
    .where(scoped(webhookDeliveries, delivery).where(eq(webhookDeliveries.id, delivery.id)));
  if (!result.ok) logFailedAttempt(ctx, endpoint, delivery, { ...result, attempts, next });
  return next ? { again: next } : undefined;
}

/**
 * A receiver's failure, for the operator: each failed attempt a warning (it will be tried again),
 * the last one an error (the event is not delivered). The host, not the URL: a path or query may
 * hold a token.
 */
function logFailedAttempt(
  ctx: AppContext,
  endpoint: WebhookEndpointRow,
  delivery: WebhookDeliveryRow,
  result: Attempt & { attempts: number; next: Date | null },
) {
  const fields = {
    workspaceId: delivery.workspaceId,
    endpointId: endpoint.id,
    host: new URL(endpoint.url).host,
    event: delivery.eventType,
    deliveryId: delivery.id,
    attempt: result.attempts,
    status: result.status,
    error: result.error,
  };
  if (result.next) {
    ctx.calls.log.warn({ ...fields, nextAttemptAt: result.next.toISOString() }, "webhook delivery attempt failed");
  } else {
    ctx.calls.log.error(fields, "webhook delivery given up: the event was not delivered");
  }
}
