import {
  AuthProviders,
  ERROR_TEXTS,
  ErrorResponse,
  SignupCompletionResult,
  SsoProvider,
  SsoSignupBody,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../lib/app-error.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { completeSsoSignup, finishSsoLogin, linkedIdentities, startSsoLogin, unlinkIdentity } from "./sso.ts";

const tags = ["auth"];
const ProviderParams = z.object({ provider: SsoProvider });
const SsoLinkStart = z.object({ url: z.string() });
const LinkedIdentity = z.object({ provider: SsoProvider, email: z.string(), linked_at: z.string() });

/**
 * Google and Microsoft sign-in (OpenID Connect). The browser is sent here by the web app and
 * comes back to the web app: tokens travel in the URL fragment of /auth/sso-callback, so they
 * never reach a server's access log; a first sign-in goes to /auth/signup-sso with a ticket.
 */
export async function ssoRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const signedIn = routeOptions({ onRequest: app.authenticate }, tags);
  const web = (path: string, params: Record<string, string>, fragment = false) =>
    `${ctx.config.publicUrl}${path}${fragment ? "#" : "?"}${new URLSearchParams(params).toString()}`;
  const messageOf = (error: unknown) => (error instanceof AppError ? error.message : ERROR_TEXTS.ssoFailed);

  r.get(
    "/auth/providers",
    { schema: { tags, summary: "Which single sign-on providers are configured", response: { 200: AuthProviders } } },
    async () => ({ google: Boolean(ctx.config.sso.google), microsoft: Boolean(ctx.config.sso.microsoft) }),
  );

  r.get(
    "/sso/:provider/login",
    {
      schema: {
        tags,
        summary: "Start single sign-on; redirects to the provider",
        params: ProviderParams,
        querystring: z.object({ redirect_to_frontend: z.enum(["true", "false"]).optional() }),
        response: { 302: z.null(), 404: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (request, reply) => {
      try {
        return reply.redirect(await startSsoLogin(ctx, request.params.provider));
      } catch (error) {
        if (request.query.redirect_to_frontend !== "true") throw error;
        request.log.warn({ err: error }, "SSO start failed");
        return reply.redirect(web("/auth/login", { error: messageOf(error) }));
      }
    },
  );

  r.get(
    "/sso/:provider/callback",
    {
      schema: {
        tags,
        summary: "Where the provider returns the browser",
        params: ProviderParams,
        response: { 302: z.null() },
      },
    },
    async (request, reply) => {
      const url = new URL(request.url, ctx.config.publicUrl);
      const providerError = url.searchParams.get("error_description") ?? url.searchParams.get("error");
      if (providerError) return reply.redirect(web("/auth/login", { error: providerError }));
      try {
        const outcome = await finishSsoLogin(ctx, reply, request.params.provider, url, request.log);
        if (outcome.kind === "linked") return reply.redirect(web("/profile", { linked: request.params.provider }));
        if (outcome.kind === "link_failed") return reply.redirect(web("/profile", { link_error: outcome.message }));
        if (outcome.kind === "signup") {
          return reply.redirect(
            web("/auth/signup-sso", { signup_token: outcome.ticket, email: outcome.email, name: outcome.name }),
          );
        }
        return reply.redirect(
          web(
            "/auth/sso-callback",
            { access_token: outcome.accessToken, workspace_id: outcome.workspaceId ?? "" },
            true,
          ),
        );
      } catch (error) {
        request.log.warn({ err: error }, "SSO callback failed");
        return reply.redirect(web("/auth/login", { error: messageOf(error) }));
      }
    },
  );

  r.post(
    "/users/me/sso/:provider/link",
    signedIn("Start linking a single sign-on identity to your account; answers the provider URL to open", {
      params: ProviderParams,
      response: { 200: SsoLinkStart },
    }),
    async (request) => ({ url: await startSsoLogin(ctx, request.params.provider, principalOf(request).userId) }),
  );

  r.get(
    "/users/me/sso-identities",
    signedIn("The single sign-on identities linked to your account", { response: { 200: z.array(LinkedIdentity) } }),
    (request) => linkedIdentities(ctx.db, principalOf(request).userId),
  );

  r.delete(
    "/users/me/sso-identities/:provider",
    signedIn("Unlink your identity at a single sign-on provider", {
      params: ProviderParams,
      response: { 200: z.array(LinkedIdentity) },
    }),
    async (request) => {
      const { userId } = principalOf(request);
      await unlinkIdentity(ctx.db, userId, request.params.provider, ctx.now());
      return linkedIdentities(ctx.db, userId);
    },
  );

  r.post(
    "/sso/signup",
    {
      schema: {
        tags,
        summary: "Complete a first single sign-on with the ticket from /auth/signup-sso",
        body: SsoSignupBody,
        response: { 200: SignupCompletionResult, 400: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse },
      },
    },
    (request, reply) => completeSsoSignup(ctx, reply, request.body),
  );
}
