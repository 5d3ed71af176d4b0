import type { Executor } from "../../db/client.ts";
import { findKeyBySecretHash, recordKeyUse, type VerifiedApiKey } from "./keys-across-workspaces.ts";
import { hashApiKeySecret } from "./secret.ts";

/**
 * Finds the live key behind a bearer secret. Like auth-state.ts, what was read stays in memory for
 * a few seconds so a program calling in a loop costs no lookup per request; a revocation in this
 * process forgets it at once, one in another process is seen within FRESH_MS.
 */

export type { VerifiedApiKey };

const FRESH_MS = 5_000;
const MAX_ENTRIES = 10_000;
/** last_used_at / last_used_ip are written at most this often per key (not a write per request). */
export const LAST_USED_EVERY_MS = 60_000;

const byHash = new Map<string, { key: VerifiedApiKey | null; until: number }>();
const lastWritten = new Map<string, number>();
let generation = 0;

/** The key the secret belongs to, if it exists, is not revoked and has not expired at `now`. */
export async function verifyApiKey(db: Executor, secret: string, now: Date): Promise<VerifiedApiKey | null> {
  const hash = hashApiKeySecret(secret);
  const cached = byHash.get(hash);
  let key: VerifiedApiKey | null;
  if (cached && cached.until > Date.now()) {
    key = cached.key;
  } else {
    const startedAt = generation;
    key = await findKeyBySecretHash(db, hash);
    if (startedAt === generation) {
      if (byHash.size >= MAX_ENTRIES) byHash.clear();
      byHash.set(hash, { key, until: Date.now() + FRESH_MS });
    }
  }
  if (!key || (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime())) return null;
  return key;
}

/** Drops every remembered key: the next request reads the database (after a revocation). */
export function forgetApiKeys(): void {
  generation += 1;
  byHash.clear();
}

/** Records when and from where a key was used, at most once a minute per key and process. */
export function noteApiKeyUse(
  db: Executor,
  keyId: string,
  ip: string,
  now: Date,
  onError: (error: unknown) => void,
): void {
  const last = lastWritten.get(keyId);
  if (last !== undefined && now.getTime() - last < LAST_USED_EVERY_MS) return;
  if (lastWritten.size >= MAX_ENTRIES) lastWritten.clear();
  lastWritten.set(keyId, now.getTime());
  recordKeyUse(db, keyId, ip, now).then(
    () => undefined,
    (error: unknown) => onError(error),
  );
}
