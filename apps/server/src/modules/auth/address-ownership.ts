import type { SsoProvider } from "@parley/contract";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import type { UserRow } from "../users/service.ts";

// An account owns its email address only when the address was proven: a link sent to it, an
// administrator typing it, or an identity provider vouching for it. Accounts created from a
// provider's unverified assertion (possible before sign-up refused them) keep `emailVerified`
// false: whoever really receives that mail must never be signed into them, nor joined to them by a
// verified sign-in, nor have the address's invitations land in them (issue 25, item 2).

export const providerLabel = (provider: SsoProvider) => (provider === "google" ? "Google" : "Microsoft");

/** Sign-up refused: the provider did not vouch for the address, so no account may be created from it. */
export function unverifiedSignup(provider: SsoProvider, email: string) {
  const label = providerLabel(provider);
  return new AppError(
    "bad_request",
    `${label} did not confirm that ${email} is your address, so Parley cannot create an account from it. Create your account with a sign-in link emailed to that address instead; you can then link your ${label} account from your profile.`,
  );
}

export const ADDRESS_NOT_OWNED =
  "The Parley account with this email address was created through single sign-on without the address being confirmed, so it cannot be opened by a link sent to the address or joined to another sign-in. Ask your Parley administrator to remove or correct that account.";

/** Refuses to open or join `user` on the strength of its address when the account does not own it. */
export function assertOwnsAddress(log: FastifyBaseLogger, user: UserRow, how: string) {
  if (user.emailVerified) return;
  log.warn({ userId: user.id, how }, "refused a sign-in to an account whose email was never verified");
  throw new AppError("conflict", ADDRESS_NOT_OWNED);
}

/** Tells the address's real owner why no link came (the request itself answers as always). */
export async function explainAddressNotOwned(ctx: AppContext, log: FastifyBaseLogger, user: UserRow, purpose: string) {
  log.warn({ userId: user.id, purpose }, "no link emailed: the account's email was never verified");
  await ctx.mailer.send({
    to: user.email,
    subject: "About your Parley sign-in request",
    text: [
      `Someone asked Parley for a ${purpose} for this address.`,
      "",
      ADDRESS_NOT_OWNED,
      "",
      "If you did not ask for it, ignore this email.",
    ].join("\n"),
  });
}
