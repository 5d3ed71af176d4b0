import { ERROR_TEXTS } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { dummyPasswordHash, verifyPassword } from "../../lib/passwords.ts";
import { findUserByLogin, type UserRow } from "../users/service.ts";
import { assertUnderRateLimit, countHit, hitRateLimit } from "./rate-limit.ts";

const WINDOW_SECONDS = 15 * 60;

/**
 * Checks a username-or-email and password. Every failure, including a deactivated account,
 * gives the same generic 401 so the response reveals nothing about which accounts exist.
 *
 * Failed attempts count per account, whichever of its names was typed (an unknown name counts
 * under itself), so switching between username and email does not double the guesses; a
 * successful sign-in counts nothing, so signing in often never locks a person out.
 */
export async function verifyLogin(
  ctx: AppContext,
  input: { login: string; password: string; ip: string },
): Promise<UserRow> {
  const now = ctx.now();
  const limits = ctx.config.rateLimits;
  await hitRateLimit(ctx.db, { key: `login:ip:${input.ip}`, limit: limits.loginPerIp, windowSeconds: 60, now });
  const user = await findUserByLogin(ctx.db, input.login);
  const account = {
    key: `login:account:${user ? user.id : input.login.trim().toLowerCase()}`,
    limit: limits.loginPerAccount,
    windowSeconds: WINDOW_SECONDS,
    now,
  };
  await assertUnderRateLimit(ctx.db, account);
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!user || !ok || !user.passwordHash || !user.isActive) {
    await countHit(ctx.db, account);
    throw new AppError("unauthorized", ERROR_TEXTS.invalidCredentials);
  }
  return user;
}
