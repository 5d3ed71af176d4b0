import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Tenant } from "../lib/tenant-scope.ts";
import { requireWorkspace } from "../modules/workspaces/service.ts";
import { principalOf } from "./authenticate.ts";

declare module "fastify" {
  interface FastifyRequest {
    tenant: Tenant | null;
  }
  interface FastifyInstance {
    /**
     * preHandler of every workspace-scoped route (after `app.authenticate`): the workspace in the
     * caller's token, once the membership check passes (another workspace, or none: 404).
     */
    resolveTenant(request: FastifyRequest): Promise<void>;
  }
}

export function registerTenant(app: FastifyInstance) {
  app.decorateRequest("tenant", null);
  app.decorate("resolveTenant", async (request: FastifyRequest) => {
    const principal = principalOf(request);
    const { workspace, role } = await requireWorkspace(app.ctx.db, principal);
    request.tenant = { workspaceId: workspace.id, role, userId: principal.userId };
  });
}

/**
 * Route options of a workspace-scoped route: authenticate (a user, or an API key whose scopes allow
 * the route), then resolve the tenant.
 */
export function tenantRoute(app: FastifyInstance) {
  return { onRequest: app.authenticateUserOrKey, preHandler: app.resolveTenant };
}

/** A workspace-scoped route for people only (API keys refused): managing the keys themselves. */
export function userTenantRoute(app: FastifyInstance) {
  return { onRequest: app.authenticate, preHandler: app.resolveTenant };
}

/** The tenant of a route that ran `app.resolveTenant`; a missing one is a wiring bug. */
export function tenantOf(request: FastifyRequest): Tenant {
  if (!request.tenant) throw new Error("tenantOf() used on a route without app.resolveTenant");
  return request.tenant;
}
