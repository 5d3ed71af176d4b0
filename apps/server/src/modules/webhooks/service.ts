import {
  type CreatedWebhookEndpoint,
  WEBHOOK_MAX_ENDPOINTS,
  WEBHOOK_TEXTS,
  type WebhookEndpoint,
  type WebhookEventType,
} from "@parley/contract";
import { count, desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type WebhookEndpointRow, webhookEndpoints } from "./schema.ts";
import { newWebhookSecret } from "./secret.ts";
import { assertWebhookUrlAllowed } from "./url-policy.ts";

export interface EndpointInput {
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
}

export function toWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function listWebhookEndpoints(db: Executor, tenant: TenantScope): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(scoped(webhookEndpoints, tenant).where())
    .orderBy(desc(webhookEndpoints.createdAt));
}

export async function requireWebhookEndpoint(db: Executor, tenant: TenantScope, id: string) {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(scoped(webhookEndpoints, tenant).where(eq(webhookEndpoints.id, id)));
  return found(row, WEBHOOK_TEXTS.notFound);
}

/** Creates an endpoint with a fresh secret, returned this once in the answer (and on reveal). */
export async function createWebhookEndpoint(
  ctx: AppContext,
  tenant: TenantScope,
  input: EndpointInput,
): Promise<CreatedWebhookEndpoint> {
  assertWebhookUrlAllowed(ctx.config.allowedPrivateHosts, input.url);
  const [existing] = await ctx.db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(scoped(webhookEndpoints, tenant).where());
  if ((existing?.n ?? 0) >= WEBHOOK_MAX_ENDPOINTS) throw new AppError("conflict", WEBHOOK_TEXTS.tooMany);
  const secret = newWebhookSecret();
  const [row] = await ctx.db
    .insert(webhookEndpoints)
    .values(scoped(webhookEndpoints, tenant).values({ ...input, secret: ctx.secrets.encrypt(secret) }))
    .returning();
  if (!row) throw new Error("insert into webhook_endpoints returned no row");
  return { ...toWebhookEndpoint(row), secret };
}

export async function updateWebhookEndpoint(
  ctx: AppContext,
  tenant: TenantScope,
  id: string,
  input: Partial<EndpointInput>,
): Promise<WebhookEndpointRow> {
  await requireWebhookEndpoint(ctx.db, tenant, id);
  if (input.url !== undefined) assertWebhookUrlAllowed(ctx.config.allowedPrivateHosts, input.url);
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set({ ...changes, updatedAt: ctx.now() })
    .where(scoped(webhookEndpoints, tenant).where(eq(webhookEndpoints.id, id)))
    .returning();
  return found(row, WEBHOOK_TEXTS.notFound);
}

export async function deleteWebhookEndpoint(db: Executor, tenant: TenantScope, id: string): Promise<void> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(scoped(webhookEndpoints, tenant).where(eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  found(rows[0], WEBHOOK_TEXTS.notFound);
}

export async function revealWebhookSecret(ctx: AppContext, tenant: TenantScope, id: string): Promise<string> {
  return ctx.secrets.decrypt((await requireWebhookEndpoint(ctx.db, tenant, id)).secret);
}

/** A new secret; the old one stops signing at once (receivers switch to the new one). */
export async function rotateWebhookSecret(ctx: AppContext, tenant: TenantScope, id: string): Promise<string> {
  await requireWebhookEndpoint(ctx.db, tenant, id);
  const secret = newWebhookSecret();
  await ctx.db
    .update(webhookEndpoints)
    .set({ secret: ctx.secrets.encrypt(secret), updatedAt: ctx.now() })
    .where(scoped(webhookEndpoints, tenant).where(eq(webhookEndpoints.id, id)));
  return secret;
}
