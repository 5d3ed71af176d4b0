import { optionalCredential } from "./credentials.ts";
import type { TelephonyAccount } from "./types.ts";

/**
 * The API origin to use for an account: the caller's override first, then the optional `base_url`
 * credential (a regional edge, or a local double), else none (the vendor's own origin).
 */
export function accountOrigin(account: Pick<TelephonyAccount, "credentials" | "baseUrl">): string | undefined {
  return account.baseUrl ?? optionalCredential(account, "base_url");
}

/** A vendor URL aimed at the account's origin: same path and query, another scheme, host and port. */
export function accountUrl(account: TelephonyAccount, url: string): string {
  const origin = accountOrigin(account);
  if (!origin) return url;
  const parsed = new URL(url);
  const path = parsed.pathname === "/" ? "" : parsed.pathname;
  return `${origin.replace(/\/+$/, "")}${path}${parsed.search}`;
}
