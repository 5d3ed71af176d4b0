import type { IncomingMessage } from "node:http";
import { ErrorResponse, MediaStreamProvider, OutboundCallBody, OutboundCallResult } from "@parley/contract";
import type { TelephonyAdapter, WebhookAnswer, WebhookRequest } from "@parley/engine";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { WebSocketServer } from "ws";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { errorResponses } from "../../lib/error-responses.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { adapterOf } from "./account.ts";
import { verifyTransferGrant } from "./grants.ts";
import { answerVoiceWebhook } from "./inbound.ts";
import { CarrierError, placeOutboundCall } from "./outbound.ts";
import { applyStatusWebhook } from "./status.ts";
import { handleStreamSocket } from "./stream-socket.ts";
import { warmPhoneCalls } from "./warm-up.ts";
import { webhookRequestOf } from "./webhook-request.ts";

const tags = ["telephony"];
const params = z.object({ provider: MediaStreamProvider });
export const BAD_SIGNATURE_TEXT = "The webhook signature is missing or invalid.";
const NO_ADAPTER_TEXT = "This provider has no telephony adapter.";
/** A 20 ms media message is well under a kilobyte; this is room for any vendor's framing. */
const MAX_STREAM_MESSAGE_BYTES = 64 * 1024;

/**
 * Phone calls over vendor media streams (issue 12): the vendor's voice and status webhooks, the
 * media stream WebSocket, and POST /make_outbound_call. Webhooks carry no user: each is admitted by
 * the vendor's signature, checked with the account of the number it concerns.
 */
export async function telephonyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  await app.register(async (hooks) => vendorWebhookRoutes(hooks, ctx));
  registerStreamRoute(app, ctx);
  // After listen, never before: a health check must not wait for models a call will use.
  app.addHook("onListen", (done) => {
    void warmPhoneCalls(ctx.calls.log);
    done();
  });

  r.post(
    "/make_outbound_call",
    {
      ...tenantRoute(app),
      schema: {
        tags,
        summary: "Call a number from one of the workspace's phone numbers with its outbound assistant",
        body: OutboundCallBody,
        response: { 201: OutboundCallResult, ...errorResponses, 429: ErrorResponse, 502: ErrorResponse },
      },
    },
    async (request, reply) => {
      try {
        const { caller_uuid: phoneNumberId, destination_number: destination } = request.body;
        return reply.code(201).send(await placeOutboundCall(ctx, tenantOf(request), phoneNumberId, destination));
      } catch (error) {
        if (error instanceof CarrierError) return reply.code(502).send({ detail: error.message });
        throw error;
      }
    },
  );
}

/** What a vendor webhook answers: markup, nothing (204), or a refused signature (403). */
type Answer = WebhookAnswer | "no_content" | "forbidden";

/** The vendor's webhooks: voice, status and transfer markup, with bodies kept as sent for signatures. */
async function vendorWebhookRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Signatures are computed over the body exactly as sent: keep it as text in this scope.
  app.removeContentTypeParser(["application/json", "application/x-www-form-urlencoded"]);
  app.addContentTypeParser(
    ["application/json", "application/x-www-form-urlencoded"],
    { parseAs: "string", bodyLimit: 256 * 1024 },
    (_request, body, done) => done(null, body),
  );

  const requireAdapter = async (provider: MediaStreamProvider, reply: FastifyReply) => {
    const adapter = await adapterOf(provider);
    if (!adapter) void reply.code(404).send({ detail: NO_ADAPTER_TEXT });
    return adapter;
  };

  /** A webhook the vendor calls by GET or POST: its adapter, and the request its signature covers. */
  const webhookRoute = (
    path: "voice" | "status",
    summary: string,
    answer: (provider: MediaStreamProvider, adapter: TelephonyAdapter, webhook: WebhookRequest) => Promise<Answer>,
  ) =>
    r.route({
      method: ["GET", "POST"],
      url: `/telephony/:provider/${path}`,
      schema: { tags, summary, params },
      handler: async (request, reply) => {
        const adapter = await requireAdapter(request.params.provider, reply);
        if (!adapter) return reply;
        const outcome = await answer(request.params.provider, adapter, webhookRequestOf(request, ctx.config.publicUrl));
        if (outcome === "forbidden") return reply.code(403).send({ detail: BAD_SIGNATURE_TEXT });
        if (outcome === "no_content") return reply.code(204).send();
        return reply.code(200).header("content-type", outcome.contentType).send(outcome.body);
      },
    });

  webhookRoute(
    "voice",
    "A vendor's voice webhook: answers with markup that opens the media stream",
    async (provider, adapter, webhook) => (await answerVoiceWebhook(ctx, provider, adapter, webhook)) ?? "forbidden",
  );
  webhookRoute(
    "status",
    "A vendor's call status callback: updates the call log",
    async (provider, adapter, webhook) => {
      const outcome = await applyStatusWebhook(ctx, provider, adapter, webhook);
      return outcome === "forbidden" ? "forbidden" : "no_content";
    },
  );

  r.route({
    method: ["GET", "POST"],
    url: "/telephony/:provider/transfer",
    schema: {
      tags,
      summary: "The dialling markup of a transfer, for vendors that fetch a live call's markup by URL",
      params,
      querystring: z.object({ t: z.string().max(4096) }),
    },
    handler: async (request, reply) => {
      const adapter = await requireAdapter(request.params.provider, reply);
      if (!adapter) return reply;
      const transfer = await verifyTransferGrant(ctx.calls, request.query.t);
      if (!transfer || !adapter.transferMarkup) return reply.code(403).send({ detail: BAD_SIGNATURE_TEXT });
      const answer = adapter.transferMarkup(transfer);
      return reply.code(200).header("content-type", answer.contentType).send(answer.body);
    },
  });
}

/**
 * GET(ws) /api/v1/telephony/{provider}/stream. The server's shared WebSocket plugin lives in the
 * calls module's scope, so this route upgrades the connection with its own `ws` server: it takes
 * the socket over (hijack) and hands it to ws, which answers 101 on it.
 */
function registerStreamRoute(app: FastifyInstance, ctx: AppContext) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_STREAM_MESSAGE_BYTES });
  app.addHook("preClose", async () => {
    for (const client of wss.clients) client.close(1001, "server_shutdown");
  });
  app.addHook("onClose", async () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  });
  // Also with the routing key of the node holding the call (`…/stream/node-2`, deploy/): any node
  // serves either form, and one that does not hold the call's room takes it over.
  const upgrade = async (
    request: FastifyRequest<{ Params: { provider: MediaStreamProvider } }>,
    reply: FastifyReply,
  ) => {
    if (request.headers.upgrade?.toLowerCase() !== "websocket") {
      return reply.code(426).send({ detail: "This address takes a WebSocket media stream." });
    }
    const adapter: TelephonyAdapter | null = await adapterOf(request.params.provider);
    if (!adapter) return reply.code(404).send({ detail: NO_ADAPTER_TEXT });
    const { provider } = request.params;
    reply.hijack();
    const raw: IncomingMessage = request.raw;
    wss.handleUpgrade(raw, raw.socket, Buffer.alloc(0), (socket) => handleStreamSocket(ctx, provider, adapter, socket));
    return reply;
  };
  const r = app.withTypeProvider<ZodTypeProvider>();
  const summary = "A vendor's media stream (WebSocket)";
  r.get("/telephony/:provider/stream", { schema: { tags, summary, params, hide: true } }, upgrade);
  const routedParams = params.extend({ node: z.string().max(64) });
  r.get("/telephony/:provider/stream/:node", { schema: { tags, summary, params: routedParams, hide: true } }, upgrade);
}
