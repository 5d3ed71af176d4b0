import {
  ASSISTANT_TEMPLATES,
  Assistant,
  AssistantTemplate,
  CostBreakdown,
  CostPerMinuteBody,
  costPerMinute,
  MessageResponse,
  UpdateAssistantQuery,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { sendJsonText } from "../../lib/json-text.ts";
import { messageAfter } from "../../lib/message-handler.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { experimentRoutes } from "./experiment-routes.ts";
import { CreateAssistantRequest, createAssistant, UpdateAssistantRequest, updateAssistant } from "./save-assistant.ts";
import { deleteAssistant, listAssistantsJson, requireAgent, toAssistant } from "./service.ts";
import { assistantVersionRoutes } from "./version-routes.ts";

const tags = ["assistants"];
const IdParams = z.object({ id: z.uuid() });
const ListQuery = z.object({ search: z.string().trim().max(120).optional() });
/** Templates leave as written; the contract's body schema (with transforms) cannot re-encode them. */
const TemplateResponse = AssistantTemplate.extend({ assistant: z.record(z.string(), z.unknown()) });

/** Assistants of the caller's workspace (spec §7 "Assistants"); members and owners alike manage them. */
export async function assistantRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions(tenantRoute(app), tags);
  // Templates and cost estimates read no workspace data: any caller may ask.
  const anyCaller = routeOptions({ onRequest: app.authenticateUserOrKey }, tags);

  r.get(
    "/agents",
    route("Assistants of the workspace, newest first (temporary ones hidden)", {
      querystring: ListQuery,
      response: { 200: z.array(Assistant) },
    }),
    // The database writes the answer's JSON (see listAssistantsJson).
    async (request, reply) =>
      sendJsonText(reply, await listAssistantsJson(ctx.db, tenantOf(request), request.query.search)),
  );

  r.get(
    "/agents/templates",
    anyCaller("Starting points for new assistants", { response: { 200: z.array(TemplateResponse) } }),
    () => ASSISTANT_TEMPLATES,
  );

  r.post(
    "/agents/calculate-cost-per-minute",
    anyCaller("Estimated cost of one call minute for an assistant configuration", {
      body: CostPerMinuteBody,
      response: { 200: CostBreakdown },
    }),
    (request) => costPerMinute(request.body),
  );

  r.post(
    "/agents",
    route("Create an assistant (also from a template's `assistant`)", {
      body: CreateAssistantRequest,
      response: { 201: Assistant },
    }),
    async (request, reply) => reply.code(201).send(await createAssistant(ctx, tenantOf(request), request.body)),
  );

  r.get("/agents/:id", route("One assistant", { params: IdParams, response: { 200: Assistant } }), async (request) =>
    toAssistant(await requireAgent(ctx.db, tenantOf(request), request.params.id)),
  );

  r.patch(
    "/agents/:id",
    route("Change some fields of an assistant and publish them as a new version (`?publish=false`: the draft only)", {
      params: IdParams,
      querystring: UpdateAssistantQuery,
      body: UpdateAssistantRequest,
      response: { 200: Assistant },
    }),
    async (request) => updateAssistant(ctx, tenantOf(request), request.params.id, request.body, request.query.publish),
  );

  r.delete(
    "/agents/:id",
    route("Delete an assistant", { params: IdParams, response: { 200: MessageResponse } }),
    messageAfter("Assistant deleted.", (request) => deleteAssistant(ctx.db, tenantOf(request), request.params.id)),
  );

  await assistantVersionRoutes(app);
  await experimentRoutes(app);
}
