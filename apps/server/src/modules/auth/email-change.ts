import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { assertIdentityFree, changeEmail } from "../users/profile.ts";
import { findUserById, normaliseEmail, type UserRow } from "../users/service.ts";
import { consumeEmailToken, emailOneTimeLink, expireEmailTokensOf, limitEmailRequests } from "./email-token.ts";

export const EMAIL_CHANGE_TTL_SECONDS = 60 * 60;
export const EMAIL_CHANGE_INVALID = "This confirmation link is invalid or has expired. Please change your email again.";

/** Hides most of an address for a notice that may be read by someone else: "n•••@example.com". */
const maskAddress = (email: string) => {
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 1)}•••@${domain}`;
};

/**
 * Starts an email change: the new address gets a link that confirms it, the old one a notice.
 * Until the link is used nothing changes, so a stolen session cannot move the account to an
 * address the owner does not control (and from there reset its password).
 */
export async function requestEmailChange(ctx: AppContext, user: UserRow, newEmail: string, ip: string) {
  const email = normaliseEmail(newEmail);
  if (email === normaliseEmail(user.email)) return;
  await assertIdentityFree(ctx.db, { email }, user.id);
  await limitEmailRequests(ctx, "email_change", ip, email);
  await emailOneTimeLink(
    ctx,
    { purpose: "email_change", email, userId: user.id, ttlSeconds: EMAIL_CHANGE_TTL_SECONDS },
    {
      to: email,
      subject: "Confirm your new Parley email address",
      intro: `Use this link to make ${email} the email address of your Parley account (${user.username}):`,
      page: { path: "/profile", param: "email_token" },
    },
  );
  await ctx.mailer.send({
    to: user.email,
    subject: "Your Parley email address is being changed",
    text: [
      `Someone signed in to your Parley account (${user.username}) asked to change its email address to ${maskAddress(email)}.`,
      "Nothing changes until the link sent to that address is used.",
      "",
      "If this was not you, sign in and change your password: that signs out every other session.",
    ].join("\n"),
  });
}

/** Applies a confirmed email change. */
export async function confirmEmailChange(ctx: AppContext, token: string): Promise<UserRow> {
  const now = ctx.now();
  const row = await consumeEmailToken(ctx.db, "email_change", token, now);
  const user = row?.userId ? await findUserById(ctx.db, row.userId) : undefined;
  if (!row || !user?.isActive) throw new AppError("bad_request", EMAIL_CHANGE_INVALID);
  if (normaliseEmail(user.email) === row.email) return user;
  const changed = await changeEmail(ctx.db, user.id, row.email, now);
  // Links already mailed to the old address must not outlive its ownership of the account.
  await expireEmailTokensOf(ctx.db, user.id, now);
  return changed;
}
