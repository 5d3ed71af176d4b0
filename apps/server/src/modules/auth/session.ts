import { randomUUID } from "node:crypto";
import { ERROR_TEXTS, REFRESH_COOKIE_NAME, REFRESH_TOKEN_TTL_SECONDS } from "@parley/contract";
import { and, eq, isNull, ne } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { hashToken, randomToken } from "../../lib/crypto.ts";
import { findUserById, setCurrentWorkspace, type UserRow, updateUser } from "../users/service.ts";
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

async function storeRefreshToken(db: Executor, ctx: AppContext, userId: string, familyId: string) {
  const token = randomToken();
  await db.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash: hashToken(token),
    expiresAt: new Date(ctx.now().getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
  });
  return token;
}

/** Mints an access token for the user, in the given workspace or the one they last used. */
export async function mintAccessToken(ctx: AppContext, user: UserRow, workspaceId?: string | null) {
  const workspace = workspaceId === undefined ? await workspaceForToken(ctx.db, user.id) : workspaceId;
  return ctx.accessTokens.forUser(user, workspace);
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
  if (!user.isActive) throw new AppError("unauthorized", ERROR_TEXTS.accountDeactivated);
  if (options.addressProven) {
    const joined = await acceptPendingInvitations(ctx.db, user, ctx.now());
    const newest = joined.at(-1);
    if (newest) await setCurrentWorkspace(ctx.db, user.id, newest);
  }
  const refresh = await storeRefreshToken(ctx.db, ctx, user.id, randomUUID());
  setRefreshCookie(ctx, reply, refresh);
  const workspaceId = await workspaceForToken(ctx.db, user.id);
  return { accessToken: await mintAccessToken(ctx, user, workspaceId), workspaceId };
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
    await tx.update(refreshTokens).set({ usedAt: now }).where(eq(refreshTokens.id, row.id));
    const next = await storeRefreshToken(tx, ctx, row.userId, row.familyId);
    return { kind: "rotated" as const, userId: row.userId, next };
  });
  if (outcome.kind !== "rotated") throw fail();
  const user = await findUserById(ctx.db, outcome.userId);
  if (!user?.isActive) throw fail();
  setRefreshCookie(ctx, reply, outcome.next);
  return mintAccessToken(ctx, user);
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

/**
 * Ends every session of a user (password reset, deactivation), or every one but the session the
 * presented refresh token belongs to (a password change keeps the device that made it signed in).
 */
export async function revokeAllSessions(db: Executor, userId: string, now: Date, keepPresented?: string) {
  // Access tokens already handed out stop working too; the kept device refreshes its own.
  await updateUser(db, userId, { sessionsValidFrom: now });
  const [kept] = keepPresented
    ? await db
        .select({ familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(and(eq(refreshTokens.tokenHash, hashToken(keepPresented)), eq(refreshTokens.userId, userId)))
    : [];
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        kept ? ne(refreshTokens.familyId, kept.familyId) : undefined,
      ),
    );
}
