import {
  EmailTokenBody,
  ErrorResponse,
  MagicLinkRequest,
  MagicLinkSignInResult,
  MagicLinkSignupBody,
  MessageResponse,
  SignupCompletionResult,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { completeMagicLinkSignup, requestMagicLink, verifyMagicLink } from "./magic-link.ts";

const tags = ["auth"];
export const MAGIC_LINK_SENT =
  "If that address can receive email, a sign-in link is on its way. It expires in 15 minutes.";

export async function magicLinkRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/auth/magic-link",
    {
      schema: {
        tags,
        summary: "Email a one-time sign-in (or sign-up) link; always answers the same",
        body: MagicLinkRequest,
        response: { 200: MessageResponse, 422: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request) => {
      await requestMagicLink(app.ctx, request.log, request.body.email, request.ip);
      return { message: MAGIC_LINK_SENT };
    },
  );

  r.post(
    "/auth/magic-link/verify",
    {
      schema: {
        tags,
        summary: "Sign in with a magic link's token",
        body: EmailTokenBody,
        response: { 200: MagicLinkSignInResult, 400: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse },
      },
    },
    (request, reply) => verifyMagicLink(app.ctx, reply, request.log, request.body.token),
  );

  r.post(
    "/auth/magic-link/complete-signup",
    {
      schema: {
        tags,
        summary: "Create the account a sign-up magic link was sent for",
        body: MagicLinkSignupBody,
        response: { 200: SignupCompletionResult, 400: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse },
      },
    },
    (request, reply) => completeMagicLinkSignup(app.ctx, reply, request.log, request.body),
  );
}
