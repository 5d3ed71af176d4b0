import { AdminUser, AdminUserPage, AdminUsersQuery, ERROR_TEXTS, SessionUser } from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, notFound } from "../../lib/app-error.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { listUsersPage, toAdminUser } from "./admin-user.ts";
import { findUserById, findUserByUsername, sessionUserOf } from "./service.ts";

export async function userRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const userRoute = routeOptions({ onRequest: app.authenticate }, ["users"]);
  const adminRoute = routeOptions({ onRequest: app.requireSuperuser }, ["admin"]);

  r.get("/users/me", userRoute("The signed-in user", { response: { 200: SessionUser } }), async (request) => {
    const user = await findUserById(db, principalOf(request).userId);
    if (!user) throw notFound();
    return sessionUserOf(db, user);
  });

  r.get(
    "/users",
    adminRoute("Users, paged and searchable (superuser)", {
      querystring: AdminUsersQuery,
      response: { 200: AdminUserPage },
    }),
    (request) => listUsersPage(db, request.query),
  );

  r.get(
    "/user/:username",
    userRoute("One user by username (yourself, or any as superuser)", {
      params: z.object({ username: z.string().min(1).max(254) }),
      response: { 200: AdminUser },
    }),
    async (request) => {
      const principal = principalOf(request);
      const user = await findUserByUsername(db, request.params.username);
      if (!principal.isSuperuser && user?.id !== principal.userId) {
        throw new AppError("forbidden", ERROR_TEXTS.forbidden);
      }
      if (!user) throw notFound("User not found.");
      return toAdminUser(db, user);
    },
  );
}
