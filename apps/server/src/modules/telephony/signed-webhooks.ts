import type { MediaStreamProvider } from "@parley/contract";
import type { TelephonyAccount, TelephonyAdapter, WebhookRequest } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import type { PhoneNumberRecord } from "../phone-numbers/service.ts";
import { accountOf } from "./account.ts";

/**
 * A vendor webhook is admitted by its signature, checked with the account of the number it
 * concerns. Where the vendor's signature carries a one-use id (a signed JWT's `jti`), the id is claimed
 * in the database once, so the same signed request sent again, to this process or another, is
 * refused while its signature would still be accepted.
 */

export interface VerifiedNumber {
  record: PhoneNumberRecord;
  account: TelephonyAccount;
}

/** True when the webhook's one-use id (if its vendor has one) had not been seen; it is now. */
async function claimNonce(
  ctx: AppContext,
  provider: MediaStreamProvider,
  adapter: TelephonyAdapter,
  request: WebhookRequest,
): Promise<boolean> {
  const nonce = adapter.webhookNonce?.(request);
  if (!nonce) return true;
  if (await ctx.calls.state.claimToken(`webhook:${provider}:${nonce.id}`, nonce.expiresAt)) return true;
  ctx.calls.log.warn({ provider, url: request.url }, "a signed webhook was sent again: refused");
  return false;
}

/** True when `account` signed the webhook and it is not a repeat of a one-use signature. */
export async function acceptSignedWebhook(
  ctx: AppContext,
  provider: MediaStreamProvider,
  adapter: TelephonyAdapter,
  account: TelephonyAccount,
  request: WebhookRequest,
): Promise<boolean> {
  if (!(await adapter.verifyWebhook(account, request))) return false;
  return claimNonce(ctx, provider, adapter, request);
}

/** The first candidate whose vendor account signed this webhook; null when none did (403). */
export async function verifiedNumber(
  ctx: AppContext,
  provider: MediaStreamProvider,
  adapter: TelephonyAdapter,
  candidates: PhoneNumberRecord[],
  request: WebhookRequest,
): Promise<VerifiedNumber | null> {
  for (const record of candidates) {
    const account = await accountOf(ctx, record);
    if (!account || !(await adapter.verifyWebhook(account, request))) continue;
    // The one-use id is claimed once, for the account that signed, not once per candidate.
    return (await claimNonce(ctx, provider, adapter, request)) ? { record, account } : null;
  }
  return null;
}
