import { randomUUID } from "node:crypto";
import { ERROR_TEXTS, REFRESH_COOKIE_NAME, REFRESH_TOKEN_TTL_SECONDS } from "@parley/contract";
import { and, eq, isNull, ne } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { recordAudit } from "../../lib/audit-log-across-workspaces.ts";
import { hashToken, randomToken } from "../../lib/crypto.ts";
import { cutSessions, findUserById, setCurrentWorkspace, type UserRow } from "../users/service.ts";
import { acceptPendingInvitations, workspaceForToken } from "../workspaces/service.ts";
import { refreshTokens } from "./schema.ts";

const cookiePath = "/api/v1";

function setRefreshCookie(ctx: AppContext, reply: FastifyReply, token: string) {
  reply.setCookie(REFRESH_COOKIE_NAME, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: ctx.config.publicUrl.startsWith("https://"),
    path: cookiePath,
    maxAge: REFRESH_TOKEN_TTL_SECONDS,
  });
}

export function clearRefreshCookie(reply: FastifyReply) {
  reply.clearCookie(REFRESH_COOKIE_NAME, { path: cookiePath });
}

export function refreshCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies[REFRESH_COOKIE_NAME];
}

async function storeRefreshToken(db: Executor, ctx: AppContext, user: UserRow, familyId: string) {
  const token = randomToken();
  await db.insert(refreshTokens).values({
    userId: user.id,
    familyId,
    sessionGeneration: user.sessionGeneration,
    tokenHash: hashToken(token),
    expiresAt: new Date(ctx.now().getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
  });
  return token;
}

/** Mints an access token of the session for the user, in the given workspace or the one they last used. */
async function mintAccessToken(ctx: AppContext, user: UserRow, sessionId: string, workspaceId?: string | null) {
  const workspace = workspaceId === undefined ? await workspaceForToken(ctx.db, user.id) : workspaceId;
  return ctx.accessTokens.forUser(user, workspace, sessionId);
}

/**
 * Starts a session after any successful sign-in (password, magic link, SSO): opens a refresh-token
 * family in an httpOnly cookie and returns an access token.
 *
 * `addressProven` says this sign-in proved the account's email address (a magic link, or a
 * provider asserting it verified): only then are the address's pending invitations accepted, and
 * the user lands in the newest inviting workspace. A password proves nothing about the address,
 * so an account whose email was typed by someone else cannot pick up that address's invitations.
 */
export async function startSession(
  ctx: AppContext,
  reply: FastifyReply,
  user: UserRow,
  options: { addressProven: boolean } = { addressProven: false },
) {
  // Read again: the session must start in the account's current session generation.
  const current = (await findUserById(ctx.db, user.id)) ?? user;
  if (!current.isActive) throw new AppError("unauthorized", ERROR_TEXTS.accountDeactivated);
  // An account whose address no provider vouched for does not own it: the address's invitations
  // are not its own, whatever the sign-in proved.
  if (options.addressProven && current.emailVerified) {
    const joined = await acceptPendingInvitations(ctx.db, current, ctx.now());
    const newest = joined.at(-1);
    if (newest) await setCurrentWorkspace(ctx.db, current.id, newest);
  }
  const sessionId = randomUUID();
  const refresh = await storeRefreshToken(ctx.db, ctx, current, sessionId);
  setRefreshCookie(ctx, reply, refresh);
  const workspaceId = await workspaceForToken(ctx.db, current.id);
  const actor = { userId: current.id, email: current.email, apiKeyId: null };
  await recordAudit(ctx.db, { workspaceId, action: "auth.sign_in", actor, ip: reply.request.ip, at: ctx.now() });
  return { accessToken: await mintAccessToken(ctx, current, sessionId, workspaceId), workspaceId };
}

/**
 * Exchanges a refresh token for a new pair. A token presented a second time means it was
 * stolen or replayed: its whole family is revoked and the caller must sign in again.
 */
export async function rotateRefreshToken(ctx: AppContext, reply: FastifyReply, presented: string | undefined) {
  const fail = () => {
    clearRefreshCookie(reply);
    return new AppError("unauthorized", ERROR_TEXTS.refreshInvalid);
  };
  if (!presented) throw fail();
  const now = ctx.now();
  const outcome = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashToken(presented)))
      .for("update");
    if (!row) return { kind: "unknown" as const };
    if (row.usedAt || row.revokedAt) {
      await tx
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
      return { kind: "reused" as const };
    }
    if (row.expiresAt <= now) return { kind: "expired" as const };
    const user = await findUserById(tx, row.userId);
    if (!user?.isActive) return { kind: "inactive" as const };
    // Issued before the last password change or reset (and not by the session that made it): the
    // generation, not the revocation flag alone, decides, so a rotation racing the change is cut too.
    if (row.sessionGeneration !== user.sessionGeneration && row.familyId !== user.keptSessionId) {
      return { kind: "cut" as const };
    }
    await tx.update(refreshTokens).set({ usedAt: now }).where(eq(refreshTokens.id, row.id));
    const next = await storeRefreshToken(tx, ctx, user, row.familyId);
    return { kind: "rotated" as const, user, sessionId: row.familyId, next };
  });
  if (outcome.kind !== "rotated") throw fail();
  setRefreshCookie(ctx, reply, outcome.next);
  return mintAccessToken(ctx, outcome.user, outcome.sessionId);
}

/** Revokes the presented token's family (this device's session) and clears the cookie. */
export async function endSession(ctx: AppContext, reply: FastifyReply, presented: string | undefined) {
  clearRefreshCookie(reply);
  if (!presented) return;
  const [row] = await ctx.db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(presented)));
  if (!row) return;
  await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: ctx.now() })
    .where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
}

/** The session a request belongs to: its access token's, else (older tokens) its refresh cookie's. */
export async function sessionOfRequest(db: Executor, userId: string, sessionId: string | null, cookie?: string) {
  if (sessionId || !cookie) return sessionId;
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tokenHash, hashToken(cookie)), eq(refreshTokens.userId, userId)));
  return row?.familyId ?? null;
}

/**
 * Ends every session of a user (password reset, deactivation), or every one but `keptSessionId`
 * (a password change keeps the device that made it signed in, its access token included). One
 * function for all three, so they cut the same way: access tokens already handed out stop working
 * on their next request, and refresh tokens can no longer be exchanged.
 */
export async function revokeAllSessions(db: Executor, userId: string, now: Date, keptSessionId: string | null = null) {
  await cutSessions(db, userId, keptSessionId);
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        keptSessionId ? ne(refreshTokens.familyId, keptSessionId) : undefined,
      ),
    );
}
