import {
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
import { auditRequest } from "../../lib/audit-log-across-workspaces.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { requireOwner, type Tenant } from "../../lib/tenant-scope.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { deleteIntegration, listIntegrations, saveIntegration, testIntegration } from "./service.ts";

const ProviderParams = z.object({ provider: z.string().min(1).max(60) });

/** The audit entry of a credentials change: the provider only, never the credentials. */
const providerEntry = (tenant: Tenant, provider: string) => ({
  workspaceId: tenant.workspaceId,
  target: { type: "integration", id: provider },
});

export async function integrationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions(tenantRoute(app), ["integrations"]);
  /** Members read the (masked) integrations; credentials are changed by owners only. */
  function ownerTenant(request: FastifyRequest): Tenant {
    const tenant = tenantOf(request);
    requireOwner(tenant);
    return tenant;
  }

  r.get(
    "/integrations",
    route("Every provider, with the workspace's masked credentials", { response: { 200: IntegrationsResponse } }),
    async (request) => ({ integrations: await listIntegrations(ctx, tenantOf(request)) }),
  );

  r.put(
    "/integrations/:provider",
    route("Save a provider's credentials (owners)", {
      params: ProviderParams,
      body: SaveIntegrationBody,
      response: { 200: Integration },
    }),
    async (request) => {
      const tenant = ownerTenant(request);
      const saved = await saveIntegration(ctx, tenant, request.params.provider, request.body.credentials);
      await auditRequest(request, "integration.changed", providerEntry(tenant, request.params.provider));
      return saved;
    },
  );

  r.delete(
    "/integrations/:provider",
    route("Remove a provider's credentials (owners)", { params: ProviderParams, response: { 200: MessageResponse } }),
    async (request) => {
      const tenant = ownerTenant(request);
      await deleteIntegration(ctx, tenant, request.params.provider);
      await auditRequest(request, "integration.deleted", providerEntry(tenant, request.params.provider));
      return { message: "Integration removed." };
    },
  );

  r.post(
    "/integrations/:provider/test",
    route("Check that the credentials work (owners)", {
      params: ProviderParams,
      body: TestIntegrationBody,
      response: { 200: IntegrationTestResult },
    }),
    async (request) => testIntegration(ctx, ownerTenant(request), request.params.provider, request.body?.credentials),
  );
}
