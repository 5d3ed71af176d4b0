import { type IntegrationProviderInfo, integrationProvider } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import type { IntegrationRow } from "./schema.ts";

/**
 * Stored credentials are sealed together with the hosts their secrets were typed for: the origin of
 * each URL field ("" for the vendor's own API) when every stored secret was last entered. Saving
 * already refuses to move a URL field without the secrets (merge-credentials.ts); this record lets
 * whatever opens credentials for use check it again, so a fault in a save path cannot send a
 * secret to a host it was not saved with. Rows sealed before the record existed carry none.
 */

/** The key the record is sealed under; no credential field has a name like it. */
const SECRET_HOSTS = "@secret_hosts";

type Values = Record<string, string>;

function originOf(value: string | undefined): string {
  if (!value?.trim()) return "";
  try {
    return new URL(value.trim()).origin;
  } catch {
    return value.trim();
  }
}

/** Each URL field's origin, as one comparable string. */
function hostsOf(info: IntegrationProviderInfo, credentials: Values): string {
  return JSON.stringify(info.fields.filter((f) => f.url).map((f) => [f.name, originOf(credentials[f.name])]));
}

function opened(ctx: Pick<AppContext, "secrets">, row: IntegrationRow): { credentials: Values; hosts?: string } {
  const { [SECRET_HOSTS]: hosts, ...credentials } = JSON.parse(ctx.secrets.decrypt(row.credentials)) as Values;
  return hosts === undefined ? { credentials } : { credentials, hosts };
}

/** The stored values by field, as entered (to show masked, and to merge a change over). */
export function openCredentials(ctx: Pick<AppContext, "secrets">, row: IntegrationRow): Values {
  return opened(ctx, row).credentials;
}

/**
 * Seals credentials for storage. The secrets' hosts are the current ones when every stored secret
 * was typed in this change (or none was stored); otherwise they stay what they were.
 */
export function sealCredentials(
  ctx: Pick<AppContext, "secrets">,
  info: IntegrationProviderInfo,
  stored: IntegrationRow | undefined,
  given: Values,
  credentials: Values,
): string {
  const before = stored ? opened(ctx, stored) : undefined;
  const keptSecret = info.fields.some((f) => f.secret && before?.credentials[f.name] && !given[f.name]?.trim());
  const hosts = keptSecret && before ? (before.hosts ?? hostsOf(info, before.credentials)) : hostsOf(info, credentials);
  return ctx.secrets.encrypt(JSON.stringify({ ...credentials, [SECRET_HOSTS]: hosts }));
}

/**
 * The stored credentials to build a vendor client with. Should a URL field no longer be on the host
 * the secrets were typed for, the secrets are left out (the vendor then refuses, as without keys)
 * and the operator is told: that is a fault, never a user's doing.
 */
export function usableCredentials(ctx: Pick<AppContext, "secrets" | "calls">, row: IntegrationRow): Values {
  const { credentials, hosts } = opened(ctx, row);
  const info = integrationProvider(row.provider);
  if (!info || hosts === undefined || hostsOf(info, credentials) === hosts) return credentials;
  ctx.calls.log.error(
    { provider: row.provider, workspaceId: row.workspaceId, integrationId: row.id },
    "an integration's URL is not on the host its secrets were saved with: the secrets are withheld",
  );
  const secret = new Set(info.fields.filter((f) => f.secret).map((f) => f.name));
  return Object.fromEntries(Object.entries(credentials).filter(([name]) => !secret.has(name)));
}
