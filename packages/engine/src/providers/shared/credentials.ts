import { providerLabel } from "@parley/contract";
import { MissingCredentialError } from "../provider-error.ts";
import type { Credentials } from "../vendor-adapters.ts";

/** Human names of the credential fields, for "missing …" messages. */
const FIELD_NAMES: Record<string, string> = {
  api_key: "API key",
  api_secret: "API secret",
  user_id: "user ID",
  endpoint: "endpoint",
  base_url: "base URL",
  account_sid: "Account SID",
  auth_token: "auth token",
  auth_id: "Auth ID",
  access_token: "access token",
  phone_number_id: "phone number ID",
};

function missing(prefix: string, provider: string, field: string): MissingCredentialError {
  const name = FIELD_NAMES[field] ?? field;
  const detail = `No ${name} for ${providerLabel(provider)}. Add one on the Integrations page.`;
  return new MissingCredentialError(prefix, provider, field, detail);
}

/** Reads a required credential field, or fails the way the Integrations page can resolve. */
export function requireField(provider: string, credentials: Credentials, field: string): string {
  const value = credentials?.[field]?.trim();
  if (value) return value;
  throw missing(provider, provider, field);
}

/** The vendor's API key: the one credential almost every vendor needs. */
export function requireKey(provider: string, credentials: Credentials): string {
  return requireField(provider, credentials, "api_key");
}

/**
 * The API key of a speech (STT or TTS) adapter. Its error starts with the vendor's label rather than
 * its id ("<Vendor>: No API key for <Vendor>. …"), as calls have always reported it.
 */
export function requireSpeechKey(provider: string, credentials: Credentials): string {
  const value = credentials?.api_key?.trim();
  if (value) return value;
  throw missing(providerLabel(provider), provider, "api_key");
}
