import {
  AdminUser,
  ChangePasswordBody,
  CreateUserBody,
  ERROR_TEXTS,
  ErrorResponse,
  MessageResponse,
  MyLimits,
  SessionUser,
  UpdateProfileBody,
} from "@parley/contract";
import { asc } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, notFound } from "../../lib/app-error.ts";
import { errorResponses } from "../../lib/error-responses.ts";
import { hashPassword } from "../../lib/passwords.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { allocatedConcurrency, effectiveLimits, ownedWorkspaceCount } from "../admin/limits.ts";
import { createPersonalWorkspace } from "../workspaces/service.ts";
import { toAdminUser, toAdminUsers } from "./admin-user.ts";
import { assertIdentityFree, changePassword, updateProfile } from "./profile.ts";
import { users } from "./schema.ts";
import { findUserById, findUserByUsername, insertUser, sessionUserOf } from "./service.ts";

const errors = errorResponses;

export async function userRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/users/me",
    {
      onRequest: app.authenticate,
      schema: { tags: ["users"], summary: "The signed-in user", response: { 200: SessionUser, ...errors } },
    },
    async (request) => {
      const user = await findUserById(db, principalOf(request).userId);
      if (!user) throw notFound();
      return sessionUserOf(db, user);
    },
  );

  r.get(
    "/users/me/limits",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["users"],
        summary: "Your limits (enterprise quota or tier) and what is allocated",
        response: { 200: MyLimits, ...errors },
      },
    },
    async (request) => {
      const { userId } = principalOf(request);
      const limits = await effectiveLimits(db, userId);
      return {
        source: limits?.source ?? ("none" as const),
        max_assistants: limits?.maxAssistants ?? null,
        minutes_per_month: limits?.minutesPerMonth ?? null,
        concurrent_calls: limits?.concurrentCalls ?? null,
        max_workspaces: limits?.maxWorkspaces ?? null,
        allocated_concurrency: await allocatedConcurrency(db, userId),
        owned_workspaces: await ownedWorkspaceCount(db, userId),
      };
    },
  );

  r.patch(
    "/users/me",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["users"],
        summary: "Update your name, email or username",
        body: UpdateProfileBody,
        response: { 200: SessionUser, ...errors },
      },
    },
    async (request) =>
      sessionUserOf(db, await updateProfile(db, principalOf(request).userId, request.body, app.ctx.now())),
  );

  r.post(
    "/users/me/password",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["users"],
        summary: "Change your password",
        body: ChangePasswordBody,
        response: { 200: MessageResponse, 400: ErrorResponse, ...errors },
      },
    },
    async (request) => {
      await changePassword(db, principalOf(request).userId, request.body, app.ctx.now());
      return { message: "Password changed." };
    },
  );

  r.get(
    "/users",
    {
      onRequest: app.requireSuperuser,
      schema: { tags: ["admin"], summary: "Every user (superuser)", response: { 200: z.array(AdminUser), ...errors } },
    },
    async () => toAdminUsers(db, await db.select().from(users).orderBy(asc(users.createdAt))),
  );

  r.get(
    "/user/:username",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["users"],
        summary: "One user by username (yourself, or any as superuser)",
        params: z.object({ username: z.string().min(1).max(254) }),
        response: { 200: AdminUser, ...errors },
      },
    },
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

  r.post(
    "/user",
    {
      onRequest: app.requireSuperuser,
      schema: {
        tags: ["admin"],
        summary: "Create a user (superuser)",
        body: CreateUserBody,
        response: { 201: AdminUser, ...errors },
      },
    },
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
