import {
  ChangePasswordBody,
  EmailTokenBody,
  ErrorResponse,
  MessageResponse,
  SessionUser,
  UpdateProfileBody,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { notFound } from "../../lib/app-error.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { forgetInitialPassword } from "../users/initial-password.ts";
import { changePassword, updateProfile } from "../users/profile.ts";
import { findUserById, sessionUserOf } from "../users/service.ts";
import { confirmEmailChange, requestEmailChange } from "./email-change.ts";
import { LinkStatus, LinkStatusBody, linkStatus } from "./link-status.ts";
import { refreshCookieOf, revokeAllSessions, sessionOfRequest } from "./session.ts";

const tags = ["users"];

/**
 * The profile writes that touch how an account signs in, so they live with the sessions and email
 * tokens: an email change waits for its confirmation link, a password change ends other sessions.
 */
export async function accountSecurityRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions({ onRequest: app.authenticate }, tags);

  r.patch(
    "/users/me",
    route("Update your name or username; a new email is emailed a confirmation link first", {
      body: UpdateProfileBody,
      response: { 200: SessionUser, 429: ErrorResponse },
    }),
    async (request) => {
      const { email, ...rest } = request.body;
      const user = await updateProfile(ctx.db, principalOf(request).userId, rest, ctx.now());
      if (email !== undefined) await requestEmailChange(ctx, user, email, request.ip);
      return sessionUserOf(ctx.db, user);
    },
  );

  r.post(
    "/users/me/email/confirm",
    {
      schema: {
        tags,
        summary: "Confirm a new email address with the link's token",
        body: EmailTokenBody,
        response: { 200: SessionUser, 400: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (request) => sessionUserOf(ctx.db, await confirmEmailChange(ctx, request.body.token)),
  );

  r.post(
    "/users/me/password",
    route("Change your password; every other session is signed out", {
      body: ChangePasswordBody,
      response: { 200: MessageResponse, 400: ErrorResponse },
    }),
    async (request) => {
      const { userId, sessionId } = principalOf(request);
      const now = ctx.now();
      await changePassword(ctx.db, userId, request.body, now);
      const kept = await sessionOfRequest(ctx.db, userId, sessionId, refreshCookieOf(request));
      await revokeAllSessions(ctx.db, userId, now, kept);
      const user = await findUserById(ctx.db, userId);
      if (!user) throw notFound();
      forgetInitialPassword(ctx.config.dataDir, user.email);
      return { message: "Password changed." };
    },
  );

  r.post(
    "/auth/link-status",
    {
      schema: {
        tags: ["auth"],
        summary: "Whether an emailed link or sign-up ticket can still be used (consumes nothing)",
        body: LinkStatusBody,
        response: { 200: LinkStatus, 422: ErrorResponse },
      },
    },
    (request) => linkStatus(ctx, request.body),
  );
}
