import {
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  MessageResponse,
  UpdateWebhookBody,
  WEBHOOK_TEXTS,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookSecret,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageAfter } from "../../lib/message-handler.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { tenantOf, tenantRoute, userTenantRoute } from "../../plugins/tenant.ts";
import { runDelivery } from "./deliver.ts";
import {
  eventEnvelope,
  listDeliveries,
  queueDelivery,
  resendDelivery,
  toWebhookDelivery,
  WEBHOOK_QUEUE,
} from "./deliveries.ts";
import { subscribeWebhookEvents } from "./events.ts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  requireWebhookEndpoint,
  revealWebhookSecret,
  rotateWebhookSecret,
  toWebhookEndpoint,
  updateWebhookEndpoint,
} from "./service.ts";

const IdParams = z.object({ id: z.uuid() });
const DeliveryParams = z.object({ id: z.uuid(), delivery_id: z.uuid() });

/** Webhook endpoints of the workspace, their delivery log, and the worker that delivers. */
export async function webhookRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions(tenantRoute(app), ["webhooks"]);
  // The signing secret is for people: an API key may manage endpoints but not read their secret.
  const peopleRoute = routeOptions(userTenantRoute(app), ["webhooks"]);

  app.jobs.register(WEBHOOK_QUEUE, async (payload) => runDelivery(ctx, String(payload.deliveryId)), {
    concurrency: 4,
  });
  const unsubscribe = subscribeWebhookEvents(ctx, () => app.jobs.wake(), app.log);
  app.addHook("onClose", async () => unsubscribe());

  r.get(
    "/webhooks",
    route("The workspace's webhook endpoints", { response: { 200: WebhookEndpointList } }),
    async (request) => (await listWebhookEndpoints(ctx.db, tenantOf(request))).map(toWebhookEndpoint),
  );

  r.post(
    "/webhooks",
    route("Add a webhook endpoint; the answer holds its signing secret", {
      body: CreateWebhookBody,
      response: { 201: CreatedWebhookEndpoint },
    }),
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return reply.code(201).send(await createWebhookEndpoint(ctx, tenantOf(request), request.body));
    },
  );

  r.get(
    "/webhooks/:id",
    route("One webhook endpoint", { params: IdParams, response: { 200: WebhookEndpoint } }),
    async (request) => toWebhookEndpoint(await requireWebhookEndpoint(ctx.db, tenantOf(request), request.params.id)),
  );

  r.patch(
    "/webhooks/:id",
    route("Change a webhook endpoint (URL, events, description, enabled)", {
      params: IdParams,
      body: UpdateWebhookBody,
      response: { 200: WebhookEndpoint },
    }),
    async (request) =>
      toWebhookEndpoint(await updateWebhookEndpoint(ctx, tenantOf(request), request.params.id, request.body)),
  );

  r.delete(
    "/webhooks/:id",
    route("Delete a webhook endpoint and its delivery log", { params: IdParams, response: { 200: MessageResponse } }),
    messageAfter(WEBHOOK_TEXTS.deleted, (request) =>
      deleteWebhookEndpoint(ctx.db, tenantOf(request), request.params.id),
    ),
  );

  r.get(
    "/webhooks/:id/secret",
    peopleRoute("Reveal the endpoint's signing secret", { params: IdParams, response: { 200: WebhookSecret } }),
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return { secret: await revealWebhookSecret(ctx, tenantOf(request), request.params.id) };
    },
  );

  r.post(
    "/webhooks/:id/rotate-secret",
    peopleRoute("Replace the signing secret; deliveries are signed with the new one at once", {
      params: IdParams,
      response: { 200: WebhookSecret },
    }),
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return { secret: await rotateWebhookSecret(ctx, tenantOf(request), request.params.id) };
    },
  );

  r.post(
    "/webhooks/:id/test",
    route("Send a test event to the endpoint (queued; its delivery shows in the log)", {
      params: IdParams,
      response: { 202: WebhookDelivery },
    }),
    async (request, reply) => {
      const tenant = tenantOf(request);
      const endpoint = await requireWebhookEndpoint(ctx.db, tenant, request.params.id);
      const now = ctx.now();
      const event = eventEnvelope(tenant.workspaceId, "test", { message: "A test event from Parley." }, now);
      const row = await queueDelivery(ctx.db, tenant, endpoint.id, { ...event, type: "test" }, now);
      app.jobs.wake();
      return reply.code(202).send(toWebhookDelivery(row));
    },
  );

  r.get(
    "/webhooks/:id/deliveries",
    route("The endpoint's delivery log, newest first", {
      params: IdParams,
      querystring: WebhookDeliveriesQuery,
      response: { 200: WebhookDeliveryPage },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      await requireWebhookEndpoint(ctx.db, tenant, request.params.id);
      return listDeliveries(ctx.db, tenant, request.params.id, request.query);
    },
  );

  r.post(
    "/webhooks/:id/deliveries/:delivery_id/resend",
    route("Send a delivery's event again (a new delivery with the same event id and body)", {
      params: DeliveryParams,
      response: { 202: WebhookDelivery },
    }),
    async (request, reply) => {
      const tenant = tenantOf(request);
      await requireWebhookEndpoint(ctx.db, tenant, request.params.id);
      const row = await resendDelivery(ctx.db, tenant, request.params.id, request.params.delivery_id, ctx.now());
      app.jobs.wake();
      return reply.code(202).send(toWebhookDelivery(row));
    },
  );
}
