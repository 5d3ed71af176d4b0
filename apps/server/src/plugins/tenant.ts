import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Tenant } from "../lib/tenant-scope.ts";
import { type Principal, principalOf } from "./authenticate.ts";

/**
 * The membership check, handed in by app.ts from the workspaces module: the workspace in the
 * caller's token and the caller's role there, or a 404 error when they are not a member.
 */
export type WorkspaceMembership = (principal: Principal) => Promise<{ workspaceId: string; role: Tenant["role"] }>;

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

export function registerTenant(app: FastifyInstance, membership: WorkspaceMembership) {
  app.decorateRequest("tenant", null);
  app.decorate("resolveTenant", async (request: FastifyRequest) => {
    const principal = principalOf(request);
    const { workspaceId, role } = await membership(principal);
    request.tenant = { workspaceId, role, userId: principal.userId };
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
