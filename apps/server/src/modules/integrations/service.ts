import {
  credentialsProblem,
  INTEGRATION_CATALOG,
  type Integration,
  type IntegrationProviderInfo,
  type IntegrationTestResult,
  integrationProvider,
  maskSecret,
} from "@parley/contract";
import { redactSecrets, testConnection } from "@parley/engine";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { environmentCredentials, findIntegration, openCredentials } from "./credentials.ts";
import { mergeCredentials } from "./merge-credentials.ts";
import { type IntegrationRow, integrations } from "./schema.ts";
import { sealCredentials, usableCredentials } from "./sealed-credentials.ts";

/**
 * A key check that failed. Keys the vendor rejects are the user's to fix (like a wrong password:
 * info); a vendor that could not be reached or answered with an error may be the server's egress
 * or an outage, which the operator should see (warn).
 */
function logFailedCheck(ctx: AppContext, tenant: TenantScope, provider: string, message: string) {
  const fields = { workspaceId: tenant.workspaceId, provider, error: redactSecrets(message) };
  const rejected = / rejected the credentials /.test(message);
  if (rejected) ctx.calls.log.info(fields, "an integration's credentials were rejected by the vendor");
  else ctx.calls.log.warn(fields, "an integration's connection check failed");
}

export function requireProvider(id: string): IntegrationProviderInfo {
  const info = integrationProvider(id);
  if (!info) throw new AppError("not_found", `Unknown integration provider "${id}".`);
  return info;
}

function maskedValues(info: IntegrationProviderInfo, credentials: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const f of info.fields) {
    const value = credentials[f.name];
    if (value) values[f.name] = f.secret ? maskSecret(value) : value;
  }
  return values;
}

function toIntegration(ctx: AppContext, info: IntegrationProviderInfo, row: IntegrationRow | undefined): Integration {
  const fromEnv = environmentCredentials(ctx.config.providerKeys, info.id) !== null;
  return {
    id: row?.id ?? null,
    provider: info.id,
    label: info.label,
    kind: info.kind,
    kinds: info.kinds,
    fields: info.fields,
    configured: row !== undefined,
    source: row ? "workspace" : fromEnv ? "environment" : null,
    values: row ? maskedValues(info, openCredentials(ctx, row)) : {},
    last_test:
      row?.lastTestedAt && row.lastTestOk !== null
        ? { ok: row.lastTestOk, message: row.lastTestMessage ?? "", tested_at: row.lastTestedAt.toISOString() }
        : null,
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}

/** One entry per catalog provider, stored or not. */
export async function listIntegrations(ctx: AppContext, tenant: TenantScope): Promise<Integration[]> {
  const rows = await ctx.db.select().from(integrations).where(scoped(integrations, tenant).where());
  const byProvider = new Map(rows.map((r) => [r.provider, r]));
  return INTEGRATION_CATALOG.map((info) => toIntegration(ctx, info, byProvider.get(info.id)));
}

export async function saveIntegration(
  ctx: AppContext,
  tenant: TenantScope,
  provider: string,
  given: Record<string, string>,
): Promise<Integration> {
  const info = requireProvider(provider);
  const stored = await findIntegration(ctx.db, tenant, provider);
  const merged = mergeCredentials(info, stored ? openCredentials(ctx, stored) : {}, given);
  if ("problem" in merged) {
    const { problem, field } = merged;
    throw new AppError("validation", problem, {}, [{ field: `credentials.${field}`, message: problem }]);
  }
  const { credentials } = merged;
  const problem = credentialsProblem(info, credentials);
  if (problem) throw new AppError("validation", problem);
  const sealed = sealCredentials(ctx, info, stored, given, credentials);
  const now = ctx.now();
  // New credentials invalidate the previous test result.
  const reset = { credentials: sealed, lastTestOk: null, lastTestMessage: null, lastTestedAt: null, updatedAt: now };
  const [row] = await ctx.db
    .insert(integrations)
    .values(scoped(integrations, tenant).values({ provider, ...reset }))
    .onConflictDoUpdate({ target: [integrations.workspaceId, integrations.provider], set: reset })
    .returning();
  return toIntegration(ctx, info, row);
}

export async function deleteIntegration(ctx: AppContext, tenant: TenantScope, provider: string): Promise<void> {
  requireProvider(provider);
  const deleted = await ctx.db
    .delete(integrations)
    .where(scoped(integrations, tenant).where(eq(integrations.provider, provider)))
    .returning({ id: integrations.id });
  if (deleted.length === 0) throw new AppError("not_found", "This integration is not configured.");
}

/**
 * Tests the given credentials or, without any, the ones calls would use. Given values are merged
 * over the workspace's stored ones only (under the same host rule as saving), never over the
 * server's environment credentials: those are sent nowhere but to the host the operator set. The
 * result is remembered only when it is about the stored credentials.
 */
export async function testIntegration(
  ctx: AppContext,
  tenant: TenantScope,
  provider: string,
  given: Record<string, string> | undefined,
): Promise<IntegrationTestResult> {
  const info = requireProvider(provider);
  const stored = await findIntegration(ctx.db, tenant, provider);
  const storedValues = stored ? usableCredentials(ctx, stored) : undefined;
  const fresh = given && Object.values(given).some((v) => v.trim()) ? given : undefined;
  let credentials = storedValues ?? environmentCredentials(ctx.config.providerKeys, provider);
  if (fresh) {
    const merged = mergeCredentials(info, storedValues ?? {}, fresh);
    if ("problem" in merged) return { ok: false, message: merged.problem };
    credentials = merged.credentials;
  }
  if (!credentials) return { ok: false, message: `No credentials are saved for ${info.label}.` };
  const problem = credentialsProblem(info, credentials);
  if (problem) return { ok: false, message: problem };
  const result = await testConnection(provider, credentials, ctx.network);
  if (!result.ok) logFailedCheck(ctx, tenant, provider, result.message);
  if (stored && !fresh) {
    await ctx.db
      .update(integrations)
      .set({ lastTestOk: result.ok, lastTestMessage: result.message, lastTestedAt: ctx.now() })
      .where(scoped(integrations, tenant).where(eq(integrations.id, stored.id)));
  }
  return { ok: result.ok, message: result.message };
}
