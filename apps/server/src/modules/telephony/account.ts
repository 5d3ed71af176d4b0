import type { TelephonyAccount, TelephonyAdapter } from "@parley/engine";
import { loadTelephony } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { resolveCredentials } from "../integrations/credentials.ts";
import type { PhoneNumberRecord } from "../phone-numbers/service.ts";

/**
 * The vendor account that carries a number's calls: the workspace's saved integration for the
 * number's provider (else the server's environment keys), reached through the SSRF-safe network.
 * A `base_url` credential replaces the vendor's API origin (a regional edge, a local double). Null
 * when the workspace has no credentials for the provider.
 */
export async function accountOf(
  ctx: AppContext,
  record: Pick<PhoneNumberRecord, "workspaceId" | "provider">,
): Promise<TelephonyAccount | null> {
  const credentials = await resolveCredentials(ctx, record.workspaceId, record.provider);
  if (!credentials) return null;
  return { credentials, net: ctx.network, baseUrl: credentials.base_url || undefined };
}

/** The vendor's telephony adapter; null when the provider has none (SIP numbers, messaging-app numbers, unknown ids). */
export function adapterOf(provider: string): Promise<TelephonyAdapter | null> {
  return loadTelephony(provider);
}
