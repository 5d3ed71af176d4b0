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
import { auditRequest } from "../../lib/audit-log-across-workspaces.ts";
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

/** An installation-wide action on one user or tier, for the audit log. */
const adminEntry = (type: "user" | "tier", id: string, details: Record<string, string | null> = {}) => ({
  workspaceId: null,
  target: { type, id },
  details,
});

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
      const tier = { tier_id: request.body.tier_id };
      await auditRequest(request, "admin.tier_assigned", adminEntry("user", request.params.id, tier));
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
      await auditRequest(request, "admin.tier_removed", adminEntry("user", request.params.id));
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
        await auditRequest(request, "admin.user_deleted", adminEntry("user", request.params.id));
        return { message: "User deleted." };
      }
      await setActive(ctx, actor, request.params.id, false);
      await auditRequest(request, "admin.user_deactivated", adminEntry("user", request.params.id));
      return adminUser(request.params.id);
    },
  );

  r.post(
    "/admin/user/:id/reactivate",
    route("Reactivate a deactivated user", { params: IdParams, response: { 200: AdminUser } }),
    async (request) => {
      await setActive(ctx, principalOf(request).userId, request.params.id, true);
      await auditRequest(request, "admin.user_reactivated", adminEntry("user", request.params.id));
      return adminUser(request.params.id);
    },
  );

  r.get("/admin/tiers", route("Tiers", { response: { 200: z.array(Tier) } }), () => listTiers(ctx.db));

  r.post(
    "/admin/tiers",
    route("Create a tier", { body: TierBody, response: { 201: Tier } }),
    async (request, reply) => {
      const tier = await createTier(ctx.db, request.body);
      await auditRequest(request, "admin.tier_created", adminEntry("tier", tier.id, { name: tier.name }));
      return reply.code(201).send(tier);
    },
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
      await auditRequest(request, "admin.tier_updated", adminEntry("tier", tier.id, { name: tier.name }));
      return tier;
    },
  );

  r.delete(
    "/admin/tiers/:id",
    route("Delete a tier (its users keep no tier)", { params: IdParams, response: { 200: MessageResponse } }),
    async (request) => {
      await deleteTier(ctx.db, request.params.id);
      await auditRequest(request, "admin.tier_deleted", adminEntry("tier", request.params.id));
      return { message: "Tier deleted." };
    },
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
    async (request) => {
      const quota = await upsertQuota(ctx.db, request.params.userId, request.body, ctx.now());
      await auditRequest(request, "admin.quota_changed", adminEntry("user", request.params.userId));
      return quota;
    },
  );

  r.delete(
    "/admin/enterprise-quotas/:userId",
    route("Remove a user's enterprise quota", { params: UserIdParams, response: { 200: MessageResponse } }),
    async (request) => {
      await deleteQuota(ctx.db, request.params.userId);
      await auditRequest(request, "admin.quota_removed", adminEntry("user", request.params.userId));
      return { message: "Quota removed." };
    },
  );
}
