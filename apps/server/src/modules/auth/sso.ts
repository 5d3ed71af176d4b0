import { ERROR_TEXTS, type SignupCompletionResult, type SsoProvider, type SsoSignupBody } from "@parley/contract";
import { and, asc, eq, gt, isNotNull, lt } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyReply } from "fastify";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { randomToken } from "../../lib/crypto.ts";
import {
  findUserByEmail,
  findUserById,
  findUserByUsername,
  insertUser,
  normaliseEmail,
  uniqueUsernameFor,
  updateUser,
} from "../users/service.ts";
import { createPersonalWorkspace } from "../workspaces/service.ts";
import { assertOwnsAddress, providerLabel, unverifiedSignup } from "./address-ownership.ts";
import { signupCompletionResult } from "./magic-link.ts";
import { oidc, oidcConfiguration, redirectUri } from "./oidc.ts";
import { ssoIdentities, ssoStates } from "./schema.ts";
import { startSession } from "./session.ts";
import { exchangeCode, type ProviderIdentity, settingsOf } from "./sso-exchange.ts";

const STATE_TTL_SECONDS = 10 * 60;

/**
 * Starts the authorization-code flow with PKCE (S256), state and nonce; returns the provider URL.
 * `linkUserId` marks a flow a signed-in user started from their profile to link an identity.
 */
export async function startSsoLogin(ctx: AppContext, provider: SsoProvider, linkUserId?: string): Promise<string> {
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
    linkUserId: linkUserId ?? null,
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
  | { kind: "signup"; ticket: string; email: string; name: string }
  | { kind: "linked" }
  | { kind: "link_failed"; message: string };

/**
 * Finishes the flow at the callback: a linked identity signs in; a flow started from a profile
 * links the identity to that profile's account; an unlinked identity whose email the provider
 * vouches for is linked to the account with that email, if that account owns its address. An
 * account is never taken over by an identity whose email the provider does not vouch for: its
 * owner links the identity from their profile. A new identity whose email the provider vouches for
 * waits, as a sign-up ticket on the state row, for POST /sso/signup; one it does not vouch for
 * gets no account (the address is not proven to be theirs).
 */
export async function finishSsoLogin(
  ctx: AppContext,
  reply: FastifyReply,
  provider: SsoProvider,
  callbackUrl: URL,
  log: FastifyBaseLogger,
): Promise<SsoOutcome> {
  const now = ctx.now();
  const { row, identity: claims } = await exchangeCode(ctx, provider, callbackUrl);
  const [linked] = await ctx.db
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.provider, provider), eq(ssoIdentities.subject, claims.subject)));
  if (row.linkUserId) {
    try {
      await linkIdentity(ctx, row.linkUserId, provider, claims, linked?.userId);
      return { kind: "linked" };
    } catch (error) {
      if (error instanceof AppError) return { kind: "link_failed", message: error.message };
      throw error;
    }
  }
  let user = linked ? await findUserById(ctx.db, linked.userId) : await findUserByEmail(ctx.db, claims.email);
  if (user && !linked) {
    if (!claims.emailVerified) throw new AppError("conflict", linkFromProfile(provider));
    assertOwnsAddress(log, user, `${provider} sign-in by email`);
    await linkIdentity(ctx, user.id, provider, claims, undefined);
    user = { ...user, ssoProvider: provider };
  }
  if (user) {
    if (!user.isActive) throw new AppError("unauthorized", ERROR_TEXTS.accountDeactivated);
    const addressProven = claims.emailVerified && claims.email === normaliseEmail(user.email);
    // The identity that holds the account now vouches for its address: the account owns it.
    if (addressProven && !user.emailVerified) await updateUser(ctx.db, user.id, { emailVerified: true });
    const session = await startSession(ctx, reply, user, { addressProven });
    return { kind: "signed_in", accessToken: session.accessToken, workspaceId: session.workspaceId };
  }
  if (!claims.emailVerified) throw unverifiedSignup(provider, claims.email);
  const ticket = randomToken();
  await ctx.db.insert(ssoStates).values({
    id: ticket,
    provider,
    codeVerifier: "-",
    nonce: "-",
    subject: claims.subject,
    email: claims.email,
    name: claims.name,
    emailVerified: claims.emailVerified,
    expiresAt: new Date(now.getTime() + STATE_TTL_SECONDS * 1000),
  });
  return { kind: "signup", ticket, email: claims.email, name: claims.name };
}

const linkFromProfile = (provider: SsoProvider) =>
  `An account with this email already exists. Sign in to it, then link your ${providerLabel(provider)} account from your profile.`;

/** Links the identity to the account; one already linked to another account is refused. */
async function linkIdentity(
  ctx: AppContext,
  userId: string,
  provider: SsoProvider,
  claims: ProviderIdentity,
  linkedTo: string | undefined,
) {
  if (linkedTo && linkedTo !== userId) {
    throw new AppError(
      "conflict",
      `This ${providerLabel(provider)} account is already linked to another Parley account.`,
    );
  }
  if (linkedTo) return;
  await ctx.db
    .insert(ssoIdentities)
    .values({ provider, subject: claims.subject, userId, email: claims.email })
    .onConflictDoNothing();
  await updateUser(ctx.db, userId, { ssoProvider: provider });
}

/** POST /sso/signup: creates the account for a pending SSO identity (its address vouched for) and signs it in. */
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
  const { subject, email, provider, emailVerified } = ticket;
  // Tickets are issued only for vouched-for addresses; one from before that rule is refused here.
  if (!emailVerified) throw unverifiedSignup(provider, email);
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
  return signupCompletionResult(ctx, reply, user, true);
}

/** The identities linked to an account, for the profile page. */
export async function linkedIdentities(db: Executor, userId: string) {
  const rows = await db
    .select()
    .from(ssoIdentities)
    .where(eq(ssoIdentities.userId, userId))
    .orderBy(asc(ssoIdentities.createdAt));
  return rows.map((r) => ({ provider: r.provider, email: r.email, linked_at: r.createdAt.toISOString() }));
}

/**
 * Unlinks the account's identities at a provider. The account keeps signing in by password or
 * magic link, so this can never lock its owner out.
 */
export async function unlinkIdentity(db: Executor, userId: string, provider: SsoProvider, now: Date) {
  await db.delete(ssoIdentities).where(and(eq(ssoIdentities.userId, userId), eq(ssoIdentities.provider, provider)));
  const [remaining] = await linkedIdentities(db, userId);
  await updateUser(db, userId, { ssoProvider: remaining?.provider ?? null, updatedAt: now });
}
