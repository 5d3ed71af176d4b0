import { ErrorResponse, LoginForm, MessageResponse, TokenResponse } from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { accountSecurityRoutes } from "./account-routes.ts";
import { verifyLogin } from "./login.ts";
import { magicLinkRoutes } from "./magic-link-routes.ts";
import { passwordResetRoutes } from "./password-reset-routes.ts";
import { endSession, refreshCookieOf, rotateRefreshToken, startSession } from "./session.ts";
import { ssoRoutes } from "./sso-routes.ts";

export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/login",
    {
      schema: {
        tags: ["auth"],
        summary: "Sign in with username or email and password (form-encoded)",
        consumes: ["application/x-www-form-urlencoded"],
        body: LoginForm,
        response: { 200: TokenResponse, 401: ErrorResponse, 422: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = await verifyLogin(app.ctx, {
        login: request.body.username,
        password: request.body.password,
        ip: request.ip,
      });
      const { accessToken } = await startSession(app.ctx, reply, user);
      return { access_token: accessToken, token_type: "bearer" as const };
    },
  );

  r.post(
    "/refresh",
    {
      schema: {
        tags: ["auth"],
        summary: "Rotate the refresh cookie and get a new access token",
        response: { 200: TokenResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const accessToken = await rotateRefreshToken(app.ctx, reply, refreshCookieOf(request));
      return { access_token: accessToken, token_type: "bearer" as const };
    },
  );

  r.post(
    "/logout",
    { schema: { tags: ["auth"], summary: "End this device's session", response: { 200: MessageResponse } } },
    async (request, reply) => {
      await endSession(app.ctx, reply, refreshCookieOf(request));
      return { message: "Signed out." };
    },
  );

  await app.register(accountSecurityRoutes);
  await app.register(magicLinkRoutes);
  await app.register(ssoRoutes);
  await app.register(passwordResetRoutes);
}
