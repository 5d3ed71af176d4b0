import {
  ERROR_TEXTS,
  ErrorResponse,
  MessageResponse,
  PASSWORD_RESET_TTL_SECONDS,
  PasswordResetConfirm,
  PasswordResetRequest,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../../lib/app-error.ts";
import { hashPassword } from "../../lib/passwords.ts";
import { forgetInitialPassword } from "../users/initial-password.ts";
import { findUserByEmail, updateUser } from "../users/service.ts";
import { explainAddressNotOwned } from "./address-ownership.ts";
import { consumeEmailToken, emailOneTimeLink, limitEmailRequests } from "./email-token.ts";
import { revokeAllSessions } from "./session.ts";

const tags = ["auth"];
export const RESET_SENT = "If an account uses that address, a password reset link is on its way.";

export async function passwordResetRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  r.post(
    "/auth/password-reset/request",
    {
      schema: {
        tags,
        summary: "Email a password reset link; always answers the same",
        body: PasswordResetRequest,
        response: { 200: MessageResponse, 422: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request) => {
      const { email } = request.body;
      await limitEmailRequests(ctx, "password_reset", request.ip, email);
      const user = await findUserByEmail(ctx.db, email);
      // A reset link would hand the address's owner an account someone else's sign-in holds.
      if (user?.isActive && !user.emailVerified) {
        await explainAddressNotOwned(ctx, request.log, user, "password reset link");
      } else if (user?.isActive) {
        await emailOneTimeLink(
          ctx,
          { purpose: "password_reset", email, userId: user.id, ttlSeconds: PASSWORD_RESET_TTL_SECONDS },
          {
            to: user.email,
            subject: "Reset your Parley password",
            intro: "Use this link to choose a new password:",
            page: { path: "/reset-password", param: "token" },
            ignoreNote: "; your password stays as it is",
          },
        );
      }
      return { message: RESET_SENT };
    },
  );

  r.post(
    "/auth/password-reset/confirm",
    {
      schema: {
        tags,
        summary: "Set a new password with a reset link's token; signs out every session",
        body: PasswordResetConfirm,
        response: { 200: MessageResponse, 400: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (request) => {
      const now = ctx.now();
      const passwordHash = await hashPassword(request.body.new_password);
      const row = await consumeEmailToken(ctx.db, "password_reset", request.body.token, now);
      if (!row?.userId) throw new AppError("bad_request", ERROR_TEXTS.resetLinkInvalid);
      await updateUser(ctx.db, row.userId, { passwordHash, updatedAt: now });
      await revokeAllSessions(ctx.db, row.userId, now);
      forgetInitialPassword(ctx.config.dataDir, row.email);
      return { message: "Your password has been changed. Sign in with the new one." };
    },
  );
}
