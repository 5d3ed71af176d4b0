import { API_KEY_MAX_PER_WORKSPACE, API_KEY_TEXTS, type ApiKey, type CreatedApiKey } from "@parley/contract";
import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { found, scoped, type Tenant, type TenantScope } from "../../lib/tenant-scope.ts";
import { type ApiKeyRow, apiKeys } from "./schema.ts";
import { newApiKeySecret } from "./secret.ts";
import { forgetApiKeys } from "./verify.ts";

type ParsedCreate = { name: string; scopes: ApiKey["scopes"]; expires_at: string | null };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    expires_at: iso(row.expiresAt),
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy,
    last_used_at: iso(row.lastUsedAt),
    last_used_ip: row.lastUsedIp,
    revoked_at: iso(row.revokedAt),
  };
}

/** Newest first; revoked keys stay listed (greyed in the web) so their last use can still be read. */
export async function listApiKeys(db: Executor, tenant: TenantScope): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(scoped(apiKeys, tenant).where()).orderBy(desc(apiKeys.createdAt));
}

/** Creates a key and returns its secret this once; only its hash is stored. */
export async function createApiKey(
  db: Database,
  tenant: Tenant,
  body: ParsedCreate,
  now: Date,
): Promise<CreatedApiKey> {
  const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    throw new AppError("validation", API_KEY_TEXTS.expiryInPast, {}, [
      { field: "expires_at", message: API_KEY_TEXTS.expiryInPast },
    ]);
  }
  const { secret, prefix, hash } = newApiKeySecret();
  const row = await db.transaction(async (tx) => {
    const [live] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(scoped(apiKeys, tenant).where(isNull(apiKeys.revokedAt)));
    if ((live?.n ?? 0) >= API_KEY_MAX_PER_WORKSPACE) throw new AppError("conflict", API_KEY_TEXTS.tooMany);
    const [inserted] = await tx
      .insert(apiKeys)
      .values(
        scoped(apiKeys, tenant).values({
          name: body.name,
          prefix,
          secretHash: hash,
          scopes: body.scopes,
          expiresAt,
          createdBy: tenant.userId,
        }),
      )
      .returning();
    if (!inserted) throw new Error("insert into api_keys returned no row");
    return inserted;
  });
  return { ...toApiKey(row), secret };
}

/** Revokes a key at once (this process forgets it now; others within seconds). Revoking twice is fine. */
export async function revokeApiKey(db: Executor, tenant: TenantScope, id: string, now: Date): Promise<ApiKeyRow> {
  const [existing] = await db
    .select()
    .from(apiKeys)
    .where(scoped(apiKeys, tenant).where(eq(apiKeys.id, id)));
  const key = found(existing, API_KEY_TEXTS.notFound);
  if (key.revokedAt) return key;
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(scoped(apiKeys, tenant).where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))))
    .returning();
  forgetApiKeys();
  return row ?? key;
}
