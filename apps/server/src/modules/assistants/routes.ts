import {
  ASSISTANT_TEMPLATES,
  Assistant,
  AssistantTemplate,
  CostBreakdown,
  CostPerMinuteBody,
  costPerMinute,
  MessageResponse,
} from "@parley/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "../../lib/app-error.ts";
import { errorResponses } from "../../lib/error-responses.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { CreateAssistantRequest, createAssistant, UpdateAssistantRequest, updateAssistant } from "./save-assistant.ts";
import { deleteAssistant, findAssistant, listAssistants } from "./service.ts";

const errors = errorResponses;
const tags = ["assistants"];
const IdParams = z.object({ id: z.uuid() });
const ListQuery = z.object({ search: z.string().trim().max(120).optional() });
/** Templates leave as written; the contract's body schema (with transforms) cannot re-encode them. */
const TemplateResponse = AssistantTemplate.extend({ assistant: z.record(z.string(), z.unknown()) });

/** Assistants of the caller's workspace (spec §7 "Assistants"); members and owners alike manage them. */
export async function assistantRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const auth = { onRequest: app.authenticate };

  /** The workspace in the caller's token, after the membership check (another workspace: 404). */
  async function workspaceOf(request: FastifyRequest) {
    const principal = principalOf(request);
    const membership = await requireWorkspace(ctx.db, principal);
    return { userId: principal.userId, workspaceId: membership.workspace.id };
  }

  r.get(
    "/agents",
    {
      ...auth,
      schema: {
        tags,
        summary: "Assistants of the workspace, newest first (temporary ones hidden)",
        querystring: ListQuery,
        response: { 200: z.array(Assistant), ...errors },
      },
    },
    async (request) => {
      const { workspaceId } = await workspaceOf(request);
      return listAssistants(ctx.db, workspaceId, request.query.search);
    },
  );

  r.get(
    "/agents/templates",
    {
      ...auth,
      schema: {
        tags,
        summary: "Starting points for new assistants",
        response: { 200: z.array(TemplateResponse), ...errors },
      },
    },
    () => ASSISTANT_TEMPLATES,
  );

  r.post(
    "/agents/calculate-cost-per-minute",
    {
      ...auth,
      schema: {
        tags,
        summary: "Estimated cost of one call minute for an assistant configuration",
        body: CostPerMinuteBody,
        response: { 200: CostBreakdown, ...errors },
      },
    },
    (request) => costPerMinute(request.body),
  );

  r.post(
    "/agents",
    {
      ...auth,
      schema: {
        tags,
        summary: "Create an assistant (also from a template's `assistant`)",
        body: CreateAssistantRequest,
        response: { 201: Assistant, ...errors },
      },
    },
    async (request, reply) => {
      const caller = await workspaceOf(request);
      return reply.code(201).send(await createAssistant(ctx, caller, request.body));
    },
  );

  r.get(
    "/agents/:id",
    {
      ...auth,
      schema: { tags, summary: "One assistant", params: IdParams, response: { 200: Assistant, ...errors } },
    },
    async (request) => {
      const { workspaceId } = await workspaceOf(request);
      const assistant = await findAssistant(ctx.db, workspaceId, request.params.id);
      if (!assistant) throw notFound("Assistant not found.");
      return assistant;
    },
  );

  r.patch(
    "/agents/:id",
    {
      ...auth,
      schema: {
        tags,
        summary: "Change some fields of an assistant",
        params: IdParams,
        body: UpdateAssistantRequest,
        response: { 200: Assistant, ...errors },
      },
    },
    async (request) => {
      const { workspaceId } = await workspaceOf(request);
      return updateAssistant(ctx, workspaceId, request.params.id, request.body);
    },
  );

  r.delete(
    "/agents/:id",
    {
      ...auth,
      schema: { tags, summary: "Delete an assistant", params: IdParams, response: { 200: MessageResponse, ...errors } },
    },
    async (request) => {
      const { workspaceId } = await workspaceOf(request);
      if (!(await deleteAssistant(ctx.db, workspaceId, request.params.id))) throw notFound("Assistant not found.");
      return { message: "Assistant deleted." };
    },
  );
}
