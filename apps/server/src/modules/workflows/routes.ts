import {
  CreateWorkflowBody,
  ErrorResponse,
  MessageResponse,
  UpdateWorkflowBody,
  ValidateWorkflowBody,
  Workflow,
  WorkflowIssue,
  WorkflowListQuery,
  WorkflowPage,
  WorkflowValidationResult,
  WorkflowVersionList,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../lib/error-responses.ts";
import { messageAfter } from "../../lib/message-handler.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { addAssistantSaveCheck } from "../assistants/save-checks.ts";
import { addVersionLinkReader } from "../assistants/version-links.ts";
import { assistantWorkflowCheck } from "./assistant-workflow.ts";
import { checkWorkflow } from "./check-workflow.ts";
import {
  createWorkflow,
  deleteWorkflow,
  duplicateWorkflow,
  getWorkflow,
  listVersions,
  listWorkflows,
  publishDraft,
  requireWorkflowRow,
  updateWorkflow,
} from "./service.ts";
import { workflowVersionLinks } from "./version-links.ts";

const IdParams = z.object({ id: z.uuid() });
/** A refused publish lists the graph's issues; other 422s (a malformed body) have none. */
const PublishRefused = ErrorResponse.extend({ issues: z.array(WorkflowIssue).optional() });
const PUBLISH_REFUSED_TEXT = "The workflow has problems to fix before it can be published.";

/**
 * Workflows of the caller's workspace (issue 15). Members and owners alike manage them, like the
 * assistants that run them. POST /workflows/{id}/test-turn lives beside these (test-turn.ts).
 */
export async function workflowRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const route = routeOptions(tenantRoute(app), ["workflows"]);
  const publishRoute = routeOptions(tenantRoute(app), ["workflows"], { ...errorResponses, 422: PublishRefused });
  addAssistantSaveCheck(assistantWorkflowCheck);
  addVersionLinkReader(workflowVersionLinks);

  r.get(
    "/workflows",
    route("A page of the workspace's workflows", { querystring: WorkflowListQuery, response: { 200: WorkflowPage } }),
    async (request) => listWorkflows(db, tenantOf(request), request.query),
  );

  r.post(
    "/workflows",
    route("Create a workflow (with assistant_id: that assistant's own, attached to it)", {
      body: CreateWorkflowBody,
      response: { 201: Workflow },
    }),
    async (request, reply) => {
      const workflow = await createWorkflow(db, tenantOf(request), request.body, ctx.now());
      return reply.code(201).send(workflow);
    },
  );

  r.post(
    "/workflows/validate",
    route("Check a graph without saving it", {
      body: ValidateWorkflowBody,
      response: { 200: WorkflowValidationResult },
    }),
    async (request) => ({
      issues: await checkWorkflow(db, tenantOf(request), {
        graph: request.body.graph,
        variables: request.body.variables,
        globalPrompt: request.body.global_prompt,
      }),
    }),
  );

  r.get(
    "/workflows/:id",
    route("One workflow with its draft and its assistants", { params: IdParams, response: { 200: Workflow } }),
    async (request) => getWorkflow(db, tenantOf(request), request.params.id),
  );

  r.patch(
    "/workflows/:id",
    route("Save the draft (published versions stay as they are)", {
      params: IdParams,
      body: UpdateWorkflowBody,
      response: { 200: Workflow },
    }),
    async (request) => updateWorkflow(db, tenantOf(request), request.params.id, request.body, ctx.now()),
  );

  r.delete(
    "/workflows/:id",
    route("Delete a workflow and its versions; its assistants are detached", {
      params: IdParams,
      response: { 200: MessageResponse },
    }),
    messageAfter("Workflow deleted.", (request) => deleteWorkflow(db, tenantOf(request), request.params.id, ctx.now())),
  );

  r.post(
    "/workflows/:id/duplicate",
    route("Copy a workflow's draft into a new, unpublished workflow", {
      params: IdParams,
      response: { 201: Workflow },
    }),
    async (request, reply) => reply.code(201).send(await duplicateWorkflow(db, tenantOf(request), request.params.id)),
  );

  r.post(
    "/workflows/:id/publish",
    publishRoute("Validate the draft and publish it as the next version (422 with the issues when invalid)", {
      params: IdParams,
      response: { 200: Workflow },
    }),
    async (request, reply) => {
      const tenant = tenantOf(request);
      const row = await requireWorkflowRow(db, tenant, request.params.id);
      const issues = await checkWorkflow(db, tenant, row);
      if (issues.length > 0) return reply.code(422).send({ detail: PUBLISH_REFUSED_TEXT, issues });
      return publishDraft(db, tenant, row, ctx.now());
    },
  );

  r.get(
    "/workflows/:id/versions",
    route("The workflow's published versions, newest first", {
      params: IdParams,
      response: { 200: WorkflowVersionList },
    }),
    async (request) => listVersions(db, tenantOf(request), request.params.id),
  );
}
