import { ErrorResponse, WhatsappIntegrateBody, WhatsappIntegrateResult } from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../lib/error-responses.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { integrateNumber } from "./integrate.ts";
import { PROVIDER } from "./vendor.ts";
import { webhookRoutes } from "./webhook-routes.ts";

/**
 * Business numbers of a messaging platform's calling API: POST /phone-numbers/{platform}/integrate,
 * and the platform's webhook that answers its voice calls with the number's assistant.
 */
export async function messagingNumberRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    `/phone-numbers/${PROVIDER}/integrate`,
    {
      ...tenantRoute(app),
      schema: {
        tags: ["phone-numbers"],
        summary: "Verify a business number's Cloud API credentials, subscribe its webhooks and add it",
        // The number's format is checked in the handler, so its 422 carries the §8 text exactly.
        body: WhatsappIntegrateBody.extend({ number: z.string().trim().max(40) }),
        response: { 201: WhatsappIntegrateResult, 400: ErrorResponse, 503: ErrorResponse, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await integrateNumber(app.ctx, tenantOf(request), request.body)),
  );

  await app.register(webhookRoutes);
}
