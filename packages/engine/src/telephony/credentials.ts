import { providerLabel } from "@parley/contract";
import { type TelephonyAccount, TelephonyError } from "./types.ts";

/** Human names of the credential fields telephony vendors use, for "No … for …" messages. */
const FIELD_NAMES: Record<string, string> = {
  api_key: "API key",
  api_secret: "API secret",
  account_sid: "Account SID",
  auth_token: "auth token",
  auth_id: "Auth ID",
  application_id: "application ID",
  private_key: "private key",
  public_key: "public key",
  signature_secret: "signature secret",
  connection_id: "connection ID",
};

/**
 * A required credential of the account. A missing one is a credentials error (the server answers
 * it with the bad-credentials text), naming the field and where to add it.
 */
export function requireCredential(provider: string, account: TelephonyAccount, field: string): string {
  const value = account.credentials?.[field]?.trim();
  if (value) return value;
  const name = FIELD_NAMES[field] ?? field;
  throw new TelephonyError(
    provider,
    "credentials",
    `No ${name} for ${providerLabel(provider)}. Add one on the Integrations page.`,
  );
}

/** An optional credential, trimmed; undefined when empty. */
export function optionalCredential(account: Pick<TelephonyAccount, "credentials">, field: string): string | undefined {
  const value = account.credentials?.[field]?.trim();
  return value ? value : undefined;
}
