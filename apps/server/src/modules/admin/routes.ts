import {
  AdminStats,
  AdminUser,
  AdminUserPage,
  AdminUsersQuery,
  AssignTierBody,
  EnterpriseQuota,
  MessageResponse,
  QuotaBody,
  Tier,
  TierBody,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "../../lib/app-error.ts";
import { messageAfter } from "../../lib/message-handler.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { listUsersPage, reloadAdminUser } from "../users/admin-user.ts";
import {
  assignTierWithDefaults,
  createTier,
  deleteTier,
  getTier,
  listTiers,
  updateTier,
  userIdsOnTier,
} from "../users/tiers.ts";
import { applyLimitsToWorkspaces, deleteQuota, getQuota, upsertQuota } from "./quotas-service.ts";
import { adminStats } from "./stats.ts";
import { deleteUserPermanently, removeTier, setActive } from "./users-admin.ts";

const IdParams = z.object({ id: z.uuid() });
const UserIdParams = z.object({ userId: z.uuid() });

/** The superuser area. Every route runs app.requireSuperuser: 401 without a token, 403 for others. */
export async function adminRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions({ onRequest: app.requireSuperuser }, ["admin"]);

  async function adminUser(id: string) {
    const user = await reloadAdminUser(ctx.db, id);
    if (!user) throw notFound("User not found.");
    return user;
  }

  r.get("/admin/stats", route("Platform figures for the admin dashboard", { response: { 200: AdminStats } }), () =>
    adminStats(ctx.db, ctx.now()),
  );

  r.get(
    "/admin/users",
    route("Users, paged and searchable", { querystring: AdminUsersQuery, response: { 200: AdminUserPage } }),
    (request) => listUsersPage(ctx.db, request.query),
  );

  r.post(
    "/admin/users/:id/assign-tier-with-defaults",
    route("Assign a tier; its limits apply to the user and follow its edits (an override set by hand stays)", {
      params: IdParams,
      body: AssignTierBody,
      response: { 200: AdminUser },
    }),
    async (request) => {
      await assignTierWithDefaults(ctx.db, request.params.id, request.body.tier_id, ctx.now());
      await applyLimitsToWorkspaces(ctx.db, request.params.id);
      return adminUser(request.params.id);
    },
  );

  r.delete(
    "/admin/users/:id/tier",
    route("Remove a user's tier and the limits that came from it (an override set by hand stays)", {
      params: IdParams,
      response: { 200: AdminUser },
    }),
    async (request) => {
      await removeTier(ctx, request.params.id);
      return adminUser(request.params.id);
    },
  );

  r.delete(
    "/admin/user/:id",
    route("Deactivate a user (reversible), or delete for good with ?permanent=true", {
      params: IdParams,
      querystring: z.object({ permanent: z.enum(["true", "false"]).optional() }),
      response: { 200: z.union([AdminUser, MessageResponse]) },
    }),
    async (request) => {
      const actor = principalOf(request).userId;
      if (request.query.permanent === "true") {
        await deleteUserPermanently(ctx, actor, request.params.id);
        return { message: "User deleted." };
      }
      await setActive(ctx, actor, request.params.id, false);
      return adminUser(request.params.id);
    },
  );

  r.post(
    "/admin/user/:id/reactivate",
    route("Reactivate a deactivated user", { params: IdParams, response: { 200: AdminUser } }),
    async (request) => {
      await setActive(ctx, principalOf(request).userId, request.params.id, true);
      return adminUser(request.params.id);
    },
  );

  r.get("/admin/tiers", route("Tiers", { response: { 200: z.array(Tier) } }), () => listTiers(ctx.db));

  r.post("/admin/tiers", route("Create a tier", { body: TierBody, response: { 201: Tier } }), async (request, reply) =>
    reply.code(201).send(await createTier(ctx.db, request.body)),
  );

  r.get("/admin/tiers/:id", route("One tier", { params: IdParams, response: { 200: Tier } }), (request) =>
    getTier(ctx.db, request.params.id),
  );

  r.patch(
    "/admin/tiers/:id",
    route("Update a tier", { params: IdParams, body: TierBody.partial(), response: { 200: Tier } }),
    async (request) => {
      const tier = await updateTier(ctx.db, request.params.id, request.body, ctx.now());
      for (const userId of await userIdsOnTier(ctx.db, tier.id)) await applyLimitsToWorkspaces(ctx.db, userId);
      return tier;
    },
  );

  r.delete(
    "/admin/tiers/:id",
    route("Delete a tier (its users keep no tier)", { params: IdParams, response: { 200: MessageResponse } }),
    messageAfter("Tier deleted.", (request) => deleteTier(ctx.db, request.params.id)),
  );

  r.get(
    "/admin/enterprise-quotas/:userId",
    route("A user's enterprise quota", { params: UserIdParams, response: { 200: EnterpriseQuota } }),
    (request) => getQuota(ctx.db, request.params.userId),
  );

  r.patch(
    "/admin/enterprise-quotas/:userId",
    route("Create or update a user's enterprise quota", {
      params: UserIdParams,
      body: QuotaBody,
      response: { 200: EnterpriseQuota },
    }),
    (request) => upsertQuota(ctx.db, request.params.userId, request.body, ctx.now()),
  );

  r.delete(
    "/admin/enterprise-quotas/:userId",
    route("Remove a user's enterprise quota", { params: UserIdParams, response: { 200: MessageResponse } }),
    messageAfter("Quota removed.", (request) => deleteQuota(ctx.db, request.params.userId)),
  );
}
