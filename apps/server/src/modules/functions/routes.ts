import {
  AssignFunctionBody,
  CreateFunctionBody,
  FunctionList,
  FunctionTestResult,
  MessageResponse,
  TestFunctionBody,
  ToolFunction,
  UpdateFunctionBody,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageAfter } from "../../lib/message-handler.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { addVersionLinkReader } from "../assistants/version-links.ts";
import { sealPlainFunctionHeaders } from "./header-sealing-across-workspaces.ts";
import {
  assignFunction,
  createFunction,
  deleteFunction,
  listFunctions,
  requireAgentFunctions,
  requireFunction,
  toToolFunction,
  unassignFunction,
  updateFunction,
} from "./service.ts";
import { functionVersionLinks } from "./version-links.ts";
import { invokeFunctionWebhook } from "./webhook.ts";

const IdParams = z.object({ id: z.uuid() });
const AgentParams = z.object({ agent_id: z.uuid() });

export async function functionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const route = routeOptions(tenantRoute(app), ["functions"]);
  addVersionLinkReader(functionVersionLinks);
  const sealed = await sealPlainFunctionHeaders(ctx);
  if (sealed > 0) app.log.info({ functions: sealed }, "sealed function headers stored in the clear");

  r.get("/functions", route("The workspace's functions", { response: { 200: FunctionList } }), async (request) =>
    (await listFunctions(db, tenantOf(request))).map((row) => toToolFunction(ctx, row)),
  );

  r.get(
    "/functions/agent/:agent_id",
    route("Functions assigned to an assistant", { params: AgentParams, response: { 200: FunctionList } }),
    async (request) =>
      (await requireAgentFunctions(db, tenantOf(request), request.params.agent_id)).map((row) =>
        toToolFunction(ctx, row),
      ),
  );

  r.get(
    "/functions/:id",
    route("One function", { params: IdParams, response: { 200: ToolFunction } }),
    async (request) => toToolFunction(ctx, await requireFunction(db, tenantOf(request), request.params.id)),
  );

  r.post(
    "/functions",
    route("Create a function", { body: CreateFunctionBody, response: { 201: ToolFunction } }),
    async (request, reply) => {
      const row = await createFunction(ctx, tenantOf(request), request.body);
      return reply.code(201).send(toToolFunction(ctx, row));
    },
  );

  r.patch(
    "/functions/:id",
    route("Change a function", { params: IdParams, body: UpdateFunctionBody, response: { 200: ToolFunction } }),
    async (request) =>
      toToolFunction(ctx, await updateFunction(ctx, tenantOf(request), request.params.id, request.body)),
  );

  r.delete(
    "/functions/:id",
    route("Delete a function", { params: IdParams, response: { 200: MessageResponse } }),
    messageAfter("Function deleted.", (request) => deleteFunction(db, tenantOf(request), request.params.id)),
  );

  r.post(
    "/functions/assign",
    route("Give an assistant a function", { body: AssignFunctionBody, response: { 200: MessageResponse } }),
    messageAfter("Function assigned.", (request) =>
      assignFunction(db, tenantOf(request), request.body.agent_id, request.body.function_id),
    ),
  );

  r.post(
    "/functions/unassign",
    route("Take a function from an assistant", { body: AssignFunctionBody, response: { 200: MessageResponse } }),
    messageAfter("Function unassigned.", (request) =>
      unassignFunction(db, tenantOf(request), request.body.agent_id, request.body.function_id),
    ),
  );

  r.post(
    "/functions/:id/test",
    route("Call the function's webhook with sample arguments", {
      params: IdParams,
      body: TestFunctionBody,
      response: { 200: FunctionTestResult },
    }),
    async (request) => {
      const fn = await requireFunction(db, tenantOf(request), request.params.id);
      const result = await invokeFunctionWebhook(ctx, fn, request.body.arguments);
      return {
        ok: result.ok,
        status: result.status,
        duration_ms: result.durationMs,
        body: result.body,
        ...(result.error ? { error: result.error } : {}),
      };
    },
  );
}
