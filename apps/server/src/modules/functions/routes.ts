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
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses as errors } from "../../lib/error-responses.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { requireWorkspace } from "../workspaces/service.ts";
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
import { invokeFunctionWebhook } from "./webhook.ts";

const IdParams = z.object({ id: z.uuid() });
const AgentParams = z.object({ agent_id: z.uuid() });

export async function functionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const tags = ["functions"];
  const workspaceOf = async (request: FastifyRequest) =>
    (await requireWorkspace(db, principalOf(request))).workspace.id;

  r.get(
    "/functions",
    {
      onRequest: app.authenticate,
      schema: { tags, summary: "The workspace's functions", response: { 200: FunctionList, ...errors } },
    },
    async (request) => (await listFunctions(db, await workspaceOf(request))).map(toToolFunction),
  );

  r.get(
    "/functions/agent/:agent_id",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Functions assigned to an assistant",
        params: AgentParams,
        response: { 200: FunctionList, ...errors },
      },
    },
    async (request) =>
      (await requireAgentFunctions(db, await workspaceOf(request), request.params.agent_id)).map(toToolFunction),
  );

  r.get(
    "/functions/:id",
    {
      onRequest: app.authenticate,
      schema: { tags, summary: "One function", params: IdParams, response: { 200: ToolFunction, ...errors } },
    },
    async (request) => toToolFunction(await requireFunction(db, await workspaceOf(request), request.params.id)),
  );

  r.post(
    "/functions",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Create a function",
        body: CreateFunctionBody,
        response: { 201: ToolFunction, ...errors },
      },
    },
    async (request, reply) => {
      const row = await createFunction(ctx, await workspaceOf(request), request.body);
      return reply.code(201).send(toToolFunction(row));
    },
  );

  r.patch(
    "/functions/:id",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Change a function",
        params: IdParams,
        body: UpdateFunctionBody,
        response: { 200: ToolFunction, ...errors },
      },
    },
    async (request) =>
      toToolFunction(await updateFunction(ctx, await workspaceOf(request), request.params.id, request.body)),
  );

  r.delete(
    "/functions/:id",
    {
      onRequest: app.authenticate,
      schema: { tags, summary: "Delete a function", params: IdParams, response: { 200: MessageResponse, ...errors } },
    },
    async (request) => {
      await deleteFunction(db, await workspaceOf(request), request.params.id);
      return { message: "Function deleted." };
    },
  );

  r.post(
    "/functions/assign",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Give an assistant a function",
        body: AssignFunctionBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      await assignFunction(db, await workspaceOf(request), request.body.agent_id, request.body.function_id);
      return { message: "Function assigned." };
    },
  );

  r.post(
    "/functions/unassign",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Take a function from an assistant",
        body: AssignFunctionBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      await unassignFunction(db, await workspaceOf(request), request.body.agent_id, request.body.function_id);
      return { message: "Function unassigned." };
    },
  );

  r.post(
    "/functions/:id/test",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Call the function's webhook with sample arguments",
        params: IdParams,
        body: TestFunctionBody,
        response: { 200: FunctionTestResult, ...errors },
      },
    },
    async (request) => {
      const fn = await requireFunction(db, await workspaceOf(request), request.params.id);
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
