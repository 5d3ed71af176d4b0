import {
  ERROR_TEXTS,
  Integration,
  IntegrationsResponse,
  IntegrationTestResult,
  MessageResponse,
  SaveIntegrationBody,
  TestIntegrationBody,
} from "@parley/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../lib/app-error.ts";
import { errorResponses as errors } from "../../lib/error-responses.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { deleteIntegration, listIntegrations, saveIntegration, testIntegration } from "./service.ts";

const ProviderParams = z.object({ provider: z.string().min(1).max(60) });

export async function integrationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ["integrations"];

  /** Members read the (masked) integrations; credentials are changed by owners only. */
  async function ownerWorkspace(request: FastifyRequest): Promise<string> {
    const membership = await requireWorkspace(ctx.db, principalOf(request));
    if (membership.role !== "owner") throw new AppError("forbidden", ERROR_TEXTS.ownerRequired);
    return membership.workspace.id;
  }

  r.get(
    "/integrations",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Every provider, with the workspace's masked credentials",
        response: { 200: IntegrationsResponse, ...errors },
      },
    },
    async (request) => {
      const { workspace } = await requireWorkspace(ctx.db, principalOf(request));
      return { integrations: await listIntegrations(ctx, workspace.id) };
    },
  );

  r.put(
    "/integrations/:provider",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Save a provider's credentials (owners)",
        params: ProviderParams,
        body: SaveIntegrationBody,
        response: { 200: Integration, ...errors },
      },
    },
    async (request) => {
      const workspaceId = await ownerWorkspace(request);
      return saveIntegration(ctx, workspaceId, request.params.provider, request.body.credentials);
    },
  );

  r.delete(
    "/integrations/:provider",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Remove a provider's credentials (owners)",
        params: ProviderParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      const workspaceId = await ownerWorkspace(request);
      await deleteIntegration(ctx, workspaceId, request.params.provider);
      return { message: "Integration removed." };
    },
  );

  r.post(
    "/integrations/:provider/test",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Check that the credentials work (owners)",
        params: ProviderParams,
        body: TestIntegrationBody,
        response: { 200: IntegrationTestResult, ...errors },
      },
    },
    async (request) => {
      const workspaceId = await ownerWorkspace(request);
      return testIntegration(ctx, workspaceId, request.params.provider, request.body?.credentials);
    },
  );
}
