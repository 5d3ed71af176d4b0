import { AdminUser, CreateUserBody, MyLimits } from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { hashPassword } from "../../lib/passwords.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { toAdminUser } from "../users/admin-user.ts";
import { effectiveLimits, tierNameOf } from "../users/limits.ts";
import { assertIdentityFree } from "../users/profile.ts";
import { insertUser } from "../users/service.ts";
import { allocatedConcurrency, createPersonalWorkspace, ownedWorkspaceCount } from "../workspaces/service.ts";

/**
 * The account routes that need both a user's plan and their workspaces: your limits with what is
 * allocated, and creating a user with a personal workspace. The users module cannot serve them:
 * workspaces build on users, so users may not import workspaces (no module import cycles).
 */
export async function accountRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const userRoute = routeOptions({ onRequest: app.authenticate }, ["users"]);
  const adminRoute = routeOptions({ onRequest: app.requireSuperuser }, ["admin"]);

  r.get(
    "/users/me/limits",
    userRoute("Your limits (an override set by an admin, else your tier's) and what is allocated", {
      response: { 200: MyLimits },
    }),
    async (request) => {
      const { userId } = principalOf(request);
      const limits = await effectiveLimits(db, userId);
      return {
        source: limits?.source ?? ("none" as const),
        tier_name: await tierNameOf(db, userId),
        max_assistants: limits?.maxAssistants ?? null,
        minutes_per_month: limits?.minutesPerMonth ?? null,
        concurrent_calls: limits?.concurrentCalls ?? null,
        max_workspaces: limits?.maxWorkspaces ?? null,
        allocated_concurrency: await allocatedConcurrency(db, userId),
        owned_workspaces: await ownedWorkspaceCount(db, userId),
      };
    },
  );

  r.post(
    "/user",
    adminRoute("Create a user (superuser)", { body: CreateUserBody, response: { 201: AdminUser } }),
    async (request, reply) => {
      const body = request.body;
      await assertIdentityFree(db, body);
      const passwordHash = await hashPassword(body.password);
      const user = await db.transaction(async (tx) => {
        const created = await insertUser(tx, { ...body, passwordHash, isSuperuser: body.is_superuser ?? false });
        await createPersonalWorkspace(tx, created);
        return created;
      });
      return reply.code(201).send(await toAdminUser(db, user));
    },
  );
}
