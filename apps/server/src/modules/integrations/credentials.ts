import { integrationProvider, providerDescriptor } from "@parley/contract";
import { MissingCredentialError } from "@parley/engine";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import type { ProviderKeys } from "../../lib/provider-env-keys.ts";
import { movesHost } from "../../lib/secret-headers.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { integrations } from "./schema.ts";
import { usableCredentials } from "./sealed-credentials.ts";

/** The server's environment credentials for a provider, when every variable it needs is set. */
export function environmentCredentials(keys: ProviderKeys, provider: string): Record<string, string> | null {
  const fields = Object.entries(providerDescriptor(provider)?.env ?? {});
  // A provider without variables (a key-free one) has nothing in the environment.
  if (fields.length === 0) return null;
  const values: Partial<Record<string, string>> = keys;
  const credentials: Record<string, string> = {};
  for (const [field, variable] of fields) {
    const value = values[variable];
    if (!value) return null;
    credentials[field] = value;
  }
  return credentials;
}

export async function findIntegration(db: Executor, tenant: TenantScope, provider: string) {
  const [row] = await db
    .select()
    .from(integrations)
    .where(scoped(integrations, tenant).where(eq(integrations.provider, provider)));
  return row;
}

export { openCredentials, usableCredentials } from "./sealed-credentials.ts";

/**
 * Drops the secret fields when `url` points at another host than the URL the credentials were saved
 * with: a stored or server key is only ever sent to that host. Credentials without a URL field go to
 * the vendor's own host, so a URL given for them takes every secret away too.
 */
function forHost(provider: string, credentials: Record<string, string>, url: string): Record<string, string> {
  const fields = integrationProvider(provider)?.fields ?? [];
  const savedUrls = fields.filter((f) => f.url).map((f) => credentials[f.name]);
  if (savedUrls.some((saved) => saved !== undefined && !movesHost(saved, url))) return credentials;
  const secret = new Set(fields.filter((f) => f.secret).map((f) => f.name));
  return Object.fromEntries(Object.entries(credentials).filter(([name]) => !secret.has(name)));
}

/**
 * The credentials a call in this workspace uses for a provider: the workspace's own, else the
 * server-wide ones from the environment, else null (the provider is not set up). With `url` (an
 * assistant's own base URL for the provider) the secrets come along only if it is the saved host.
 */
export async function resolveCredentials(
  ctx: AppContext,
  workspaceId: string,
  provider: string,
  options: { url?: string | undefined } = {},
): Promise<Record<string, string> | null> {
  const row = await findIntegration(ctx.db, { workspaceId }, provider);
  const credentials = row ? usableCredentials(ctx, row) : environmentCredentials(ctx.config.providerKeys, provider);
  return credentials && options.url ? forHost(provider, credentials, options.url) : credentials;
}

/**
 * A missing provider key is the workspace's to fix, not an outage: a 409 with the engine's sentence
 * naming the key and the Integrations page (the same answer a call start gives), else null.
 */
export function missingKeyConflict(error: unknown): AppError | null {
  return error instanceof MissingCredentialError ? new AppError("conflict", error.detail) : null;
}
