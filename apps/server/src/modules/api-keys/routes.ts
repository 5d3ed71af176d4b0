import { ApiKey, ApiKeyList, CreateApiKeyBody, CreatedApiKey } from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { auditRequest } from "../../lib/audit-log-across-workspaces.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { requireOwner } from "../../lib/tenant-scope.ts";
import { tenantOf, userTenantRoute } from "../../plugins/tenant.ts";
import { createApiKey, listApiKeys, revokeApiKey, toApiKey } from "./service.ts";

const IdParams = z.object({ id: z.uuid() });

/** The audit entry of a key's creation or revocation: its name and prefix, never its secret. */
const keyEntry = (workspaceId: string, key: ApiKey) => ({
  workspaceId,
  target: { type: "api_key", id: key.id },
  details: { name: key.name, prefix: key.prefix },
});

/**
 * The workspace's API keys. Members see them; owners create and revoke them (a key is a workspace
 * credential, like a provider key). These routes refuse API keys: a key cannot mint or revoke keys.
 */
export async function apiKeyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions(userTenantRoute(app), ["api keys"]);

  r.get(
    "/api-keys",
    route("The workspace's API keys, newest first", { response: { 200: ApiKeyList } }),
    async (request) => (await listApiKeys(ctx.db, tenantOf(request))).map(toApiKey),
  );

  r.post(
    "/api-keys",
    route("Create an API key: the answer holds its secret, shown this once", {
      body: CreateApiKeyBody,
      response: { 201: CreatedApiKey },
    }),
    async (request, reply) => {
      const tenant = tenantOf(request);
      requireOwner(tenant);
      reply.header("cache-control", "no-store");
      const created = await createApiKey(ctx.db, tenant, request.body, ctx.now());
      await auditRequest(request, "api_key.created", keyEntry(tenant.workspaceId, created));
      return reply.code(201).send(created);
    },
  );

  r.post(
    "/api-keys/:id/revoke",
    route("Revoke an API key: it stops working at once", { params: IdParams, response: { 200: ApiKey } }),
    async (request) => {
      const tenant = tenantOf(request);
      requireOwner(tenant);
      const revoked = toApiKey(await revokeApiKey(ctx.db, tenant, request.params.id, ctx.now()));
      await auditRequest(request, "api_key.revoked", keyEntry(tenant.workspaceId, revoked));
      return revoked;
    },
  );

  r.delete(
    "/api-keys/:id",
    route("Revoke an API key (the same as POST /api-keys/{id}/revoke; the key stays listed as revoked)", {
      params: IdParams,
      response: { 200: ApiKey },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      requireOwner(tenant);
      const revoked = toApiKey(await revokeApiKey(ctx.db, tenant, request.params.id, ctx.now()));
      await auditRequest(request, "api_key.revoked", keyEntry(tenant.workspaceId, revoked));
      return revoked;
    },
  );
}
