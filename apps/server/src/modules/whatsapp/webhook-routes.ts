import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { findInboundNumbers } from "../phone-numbers/service.ts";
import { InboundCalls } from "./inbound-calls.ts";
import { WEBHOOK_PATH } from "./integrate.ts";
import { callingAdapter, PROVIDER } from "./vendor.ts";
import { numberOfVerifyToken, sameToken } from "./verify-token.ts";
import { verifyWebhook } from "./webhook-signature.ts";

const tags = ["phone-numbers"];

const VerifyQuery = z.object({
  "hub.mode": z.string().optional(),
  "hub.verify_token": z.string().optional(),
  "hub.challenge": z.string().max(1000).optional(),
});

/** Each webhook's body as it arrived, for the signature check (kept by this plugin's JSON parser). */
const rawBodies = new WeakMap<object, string>();

/**
 * The platform's webhook (no user: the verify token and the body's signature are the
 * authentication). GET answers the subscription handshake; POST carries call events. This plugin is
 * encapsulated, so its raw-body JSON parser applies to these routes only.
 */
export async function webhookRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const calls = new InboundCalls(ctx);
  app.addHook("preClose", async () => calls.endAll());

  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    rawBodies.set(request, text);
    try {
      done(null, text === "" ? {} : JSON.parse(text));
    } catch {
      // An unparsable body is judged by its signature first; the handler reads the raw text.
      done(null, {});
    }
  });

  r.get(
    WEBHOOK_PATH,
    {
      schema: { tags, summary: "Webhook verification handshake (hub.challenge)", querystring: VerifyQuery },
    },
    async (request, reply) => {
      const query = request.query;
      const token = query["hub.verify_token"] ?? "";
      const number = numberOfVerifyToken(token);
      const records =
        number && query["hub.mode"] === "subscribe" ? await findInboundNumbers(ctx.db, PROVIDER, number) : [];
      if (!records.some((record) => sameToken(token, record.whatsappVerifyToken))) {
        return reply.code(403).send({ detail: "The verify token does not match this webhook." });
      }
      return reply
        .code(200)
        .type("text/plain")
        .send(query["hub.challenge"] ?? "");
    },
  );

  r.post(
    WEBHOOK_PATH,
    { schema: { tags, summary: "Call events (connect with the SDP offer, terminate), signed X-Hub-Signature-256" } },
    async (request, reply) => {
      const adapter = await callingAdapter();
      const header = request.headers["x-hub-signature-256"];
      const signature = typeof header === "string" ? header : undefined;
      const signed = await verifyWebhook(ctx, adapter, rawBodies.get(request) ?? "", signature);
      if (!signed.ok) return reply.code(403).send({ detail: "Invalid webhook signature." });
      for (const event of signed.events) {
        const number = signed.numbers.find((n) => n.record.whatsappPhoneNumberId === event.numberId);
        if (!number) continue;
        if (event.type === "connect") calls.answer(adapter, number, event);
        else calls.ended(event.callId);
      }
      // The platform wants a quick 200; the call is answered in the background.
      return reply.code(200).send({ ok: true });
    },
  );
}
