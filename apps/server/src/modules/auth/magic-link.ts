import {
  ERROR_TEXTS,
  MAGIC_LINK_TTL_SECONDS,
  type MagicLinkSignInResult,
  type SignupCompletionResult,
} from "@parley/contract";
import type { FastifyBaseLogger, FastifyReply } from "fastify";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import {
  findUserByEmail,
  findUserById,
  insertUser,
  normaliseEmail,
  sessionUserOf,
  type UserRow,
  uniqueUsernameFor,
} from "../users/service.ts";
import { createPersonalWorkspace, listMemberships, toWorkspace } from "../workspaces/service.ts";
import { assertOwnsAddress, explainAddressNotOwned } from "./address-ownership.ts";
import { consumeEmailToken, emailOneTimeLink, limitEmailRequests } from "./email-token.ts";
import { startSession } from "./session.ts";

/**
 * Emails a one-time link: to sign in for a known active account, to finish signing up for an
 * unknown address. Deactivated accounts get nothing. The caller always answers the same way.
 */
export async function requestMagicLink(ctx: AppContext, log: FastifyBaseLogger, email: string, ip: string) {
  await limitEmailRequests(ctx, "magic_link", ip, email);
  const user = await findUserByEmail(ctx.db, email);
  if (user && !user.isActive) return;
  if (user && !user.emailVerified) return explainAddressNotOwned(ctx, log, user, "sign-in link");
  await emailOneTimeLink(
    ctx,
    { purpose: "magic_link", email, userId: user?.id ?? null, ttlSeconds: MAGIC_LINK_TTL_SECONDS },
    {
      to: email,
      subject: user ? "Your Parley sign-in link" : "Finish creating your Parley account",
      intro: user ? "Use this link to sign in to Parley:" : "Use this link to finish creating your Parley account:",
      page: { path: user ? "/auth/magic-link-callback" : "/auth/complete-signup-magic-link", param: "token" },
    },
  );
}

const invalid = () => new AppError("bad_request", ERROR_TEXTS.magicLinkInvalid);

/** Signs in with a magic link: the spec's "magic-link sign-in result". */
export async function verifyMagicLink(
  ctx: AppContext,
  reply: FastifyReply,
  log: FastifyBaseLogger,
  token: string,
): Promise<MagicLinkSignInResult> {
  const row = await consumeEmailToken(ctx.db, "magic_link", token, ctx.now());
  const user = row && (row.userId ? await findUserById(ctx.db, row.userId) : await findUserByEmail(ctx.db, row.email));
  if (!row || !user?.isActive) throw invalid();
  assertOwnsAddress(log, user, "magic link");
  // The link proves the address it was sent to, which is the account's unless it changed since.
  const session = await startSession(ctx, reply, user, {
    addressProven: normaliseEmail(row.email) === normaliseEmail(user.email),
  });
  return {
    token: session.accessToken,
    workspaceId: session.workspaceId ?? "",
    userName: user.name,
    userEmail: user.email,
  };
}

/**
 * Builds the spec's "signup completion result" for a freshly signed-in user; with a proven
 * address an invited user lands in the inviting workspace.
 */
export async function signupCompletionResult(
  ctx: AppContext,
  reply: FastifyReply,
  user: UserRow,
  addressProven: boolean,
): Promise<SignupCompletionResult> {
  const session = await startSession(ctx, reply, user, { addressProven });
  const memberships = await listMemberships(ctx.db, user.id);
  const current = memberships.find((m) => m.workspace.id === session.workspaceId) ?? memberships[0];
  if (!current) throw new Error("a signed-up user has no workspace");
  return {
    access_token: session.accessToken,
    user_info: await sessionUserOf(ctx.db, user),
    workspace_id: current.workspace.id,
    workspace_name: current.workspace.name,
    workspaces: memberships.map((m) => toWorkspace(m, current.workspace.id)),
  };
}

/**
 * Completes a sign-up from a magic link: creates the account and its personal workspace (the user
 * is its owner). If the address got an account in the meantime, that account is signed in instead.
 */
export async function completeMagicLinkSignup(
  ctx: AppContext,
  reply: FastifyReply,
  log: FastifyBaseLogger,
  input: { token: string; name?: string | undefined },
): Promise<SignupCompletionResult> {
  const row = await consumeEmailToken(ctx.db, "magic_link", input.token, ctx.now());
  if (!row) throw invalid();
  let user = await findUserByEmail(ctx.db, row.email);
  if (user && !user.isActive) throw invalid();
  if (user) assertOwnsAddress(log, user, "magic-link sign-up");
  if (!user) {
    const name = input.name ?? row.email.split("@")[0] ?? row.email;
    user = await ctx.db.transaction(async (tx) => {
      const created = await insertUser(tx, {
        email: row.email,
        username: await uniqueUsernameFor(tx, row.email),
        name,
        passwordHash: null,
      });
      await createPersonalWorkspace(tx, created);
      return created;
    });
  }
  return signupCompletionResult(ctx, reply, user, true);
}
