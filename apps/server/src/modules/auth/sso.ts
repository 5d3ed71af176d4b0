import { ERROR_TEXTS, type SignupCompletionResult, type SsoProvider, type SsoSignupBody } from "@parley/contract";
import { and, eq, gt, isNotNull, lt } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { randomToken } from "../../lib/crypto.ts";
import { users } from "../users/schema.ts";
import { findUserByEmail, findUserById, findUserByUsername, insertUser, uniqueUsernameFor } from "../users/service.ts";
import { createPersonalWorkspace } from "../workspaces/service.ts";
import { signupCompletionResult } from "./magic-link.ts";
import { oidc, oidcConfiguration, providerSettings, redirectUri } from "./oidc.ts";
import { ssoIdentities, ssoStates } from "./schema.ts";
import { startSession } from "./session.ts";

const STATE_TTL_SECONDS = 10 * 60;

function settingsOf(ctx: AppContext, provider: SsoProvider) {
  const settings = providerSettings(ctx.config, provider);
  if (!settings) throw new AppError("not_found", ERROR_TEXTS.ssoNotConfigured);
  return settings;
}

/** Starts the authorization-code flow with PKCE (S256), state and nonce; returns the provider URL. */
export async function startSsoLogin(ctx: AppContext, provider: SsoProvider): Promise<string> {
  const config = await oidcConfiguration(settingsOf(ctx, provider));
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const now = ctx.now();
  await ctx.db.delete(ssoStates).where(lt(ssoStates.expiresAt, now));
  await ctx.db.insert(ssoStates).values({
    id: state,
    provider,
    codeVerifier,
    nonce,
    expiresAt: new Date(now.getTime() + STATE_TTL_SECONDS * 1000),
  });
  return oidc
    .buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(ctx.config, provider),
      scope: "openid email profile",
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
      state,
      nonce,
    })
    .toString();
}

export type SsoOutcome =
  | { kind: "signed_in"; accessToken: string; workspaceId: string | null }
  | { kind: "signup"; ticket: string; email: string; name: string };

/**
 * Finishes the flow at the callback: a linked identity signs in; an unlinked one whose verified
 * email matches an account is linked to it; otherwise the verified identity waits, as a sign-up
 * ticket on the state row, for POST /sso/signup.
 */
export async function finishSsoLogin(
  ctx: AppContext,
  reply: FastifyReply,
  provider: SsoProvider,
  callbackUrl: URL,
): Promise<SsoOutcome> {
  const state = callbackUrl.searchParams.get("state") ?? "";
  const now = ctx.now();
  const [row] = await ctx.db
    .delete(ssoStates)
    .where(and(eq(ssoStates.id, state), eq(ssoStates.provider, provider), gt(ssoStates.expiresAt, now)))
    .returning();
  if (!row) throw new AppError("bad_request", "This sign-in attempt has expired. Please try again.");
  const config = await oidcConfiguration(settingsOf(ctx, provider));
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: row.codeVerifier,
    expectedState: row.id,
    expectedNonce: row.nonce,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new AppError("bad_request", ERROR_TEXTS.ssoFailed);
  // Providers may keep profile claims out of the ID token and serve them at the userinfo endpoint.
  const claims =
    typeof idClaims.email === "string"
      ? idClaims
      : { ...idClaims, ...(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)) };
  const email = typeof claims.email === "string" ? claims.email.toLowerCase() : undefined;
  if (!email) throw new AppError("bad_request", "Your account at the provider has no email address.");
  if (claims.email_verified === false)
    throw new AppError("bad_request", "Your email address is not verified at the provider.");
  const name =
    typeof claims.name === "string" && claims.name.trim() ? claims.name.trim() : (email.split("@")[0] ?? email);

  const [identity] = await ctx.db
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.provider, provider), eq(ssoIdentities.subject, claims.sub)));
  let user = identity ? await findUserById(ctx.db, identity.userId) : await findUserByEmail(ctx.db, email);
  if (user && !identity) {
    await ctx.db.insert(ssoIdentities).values({ provider, subject: claims.sub, userId: user.id, email });
    await ctx.db.update(users).set({ ssoProvider: provider }).where(eq(users.id, user.id));
    user = { ...user, ssoProvider: provider };
  }
  if (user) {
    if (!user.isActive) throw new AppError("unauthorized", ERROR_TEXTS.accountDeactivated);
    const session = await startSession(ctx, reply, user);
    return { kind: "signed_in", accessToken: session.accessToken, workspaceId: session.workspaceId };
  }
  const ticket = randomToken();
  await ctx.db.insert(ssoStates).values({
    id: ticket,
    provider,
    codeVerifier: "-",
    nonce: "-",
    subject: claims.sub,
    email,
    name,
    expiresAt: new Date(now.getTime() + STATE_TTL_SECONDS * 1000),
  });
  return { kind: "signup", ticket, email, name };
}

/** POST /sso/signup: creates the account for a pending SSO identity and signs it in. */
export async function completeSsoSignup(
  ctx: AppContext,
  reply: FastifyReply,
  body: SsoSignupBody,
): Promise<SignupCompletionResult> {
  const [ticket] = await ctx.db
    .delete(ssoStates)
    .where(and(eq(ssoStates.id, body.signup_token), isNotNull(ssoStates.subject), gt(ssoStates.expiresAt, ctx.now())))
    .returning();
  if (!ticket?.subject || !ticket.email)
    throw new AppError("bad_request", "This sign-up link has expired. Please sign in again.");
  const { subject, email, provider } = ticket;
  if (await findUserByEmail(ctx.db, email)) throw new AppError("conflict", ERROR_TEXTS.emailTaken);
  if (body.username && (await findUserByUsername(ctx.db, body.username))) {
    throw new AppError("conflict", ERROR_TEXTS.usernameTaken);
  }
  const user = await ctx.db.transaction(async (tx) => {
    const created = await insertUser(tx, {
      email,
      username: body.username ?? (await uniqueUsernameFor(tx, email)),
      name: body.name ?? ticket.name ?? email,
      passwordHash: null,
      ssoProvider: provider,
    });
    await tx.insert(ssoIdentities).values({ provider, subject, userId: created.id, email });
    await createPersonalWorkspace(tx, created);
    return created;
  });
  return signupCompletionResult(ctx, reply, user);
}
