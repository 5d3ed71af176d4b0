// API-key queries that cross workspaces on purpose: they run while a request is authenticated, before
// any workspace is known. A bearer secret names its key (and so the key's workspace) only through its
// hash, and the key's last use is recorded by the key's own id, found that way a moment before.

import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { type ApiKeyRow, apiKeys } from "./schema.ts";
import { sameHash } from "./secret.ts";

export type VerifiedApiKey = Pick<ApiKeyRow, "id" | "workspaceId" | "scopes" | "createdBy" | "expiresAt">;

/** The unrevoked key whose secret hashes to `hash`, whatever its workspace (expiry is the caller's check). */
export async function findKeyBySecretHash(db: Executor, hash: string): Promise<VerifiedApiKey | null> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      workspaceId: apiKeys.workspaceId,
      scopes: apiKeys.scopes,
      createdBy: apiKeys.createdBy,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      secretHash: apiKeys.secretHash,
    })
    .from(apiKeys)
    .where(eq(apiKeys.secretHash, hash));
  // The index found it by equality; the constant-time compare keeps the check itself timing-free.
  if (!row || row.revokedAt !== null || !sameHash(row.secretHash, hash)) return null;
  const { revokedAt: _r, secretHash: _s, ...key } = row;
  return key;
}

/** Records when and from where a key was used. */
export async function recordKeyUse(db: Executor, keyId: string, ip: string, now: Date): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: now, lastUsedIp: ip }).where(eq(apiKeys.id, keyId));
}
