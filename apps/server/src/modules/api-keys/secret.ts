import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { API_KEY_SECRET_PREFIX, API_KEY_VISIBLE_CHARS } from "@parley/contract";

/** A new secret: the prefix and 256 random bits, base64url ("pk_live_" + 43 characters). */
export function newApiKeySecret(): { secret: string; prefix: string; hash: string } {
  const secret = `${API_KEY_SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { secret, prefix: visiblePrefix(secret), hash: hashApiKeySecret(secret) };
}

/** What the list shows of a key: "pk_live_ab12cd". */
export function visiblePrefix(secret: string): string {
  return secret.slice(0, API_KEY_SECRET_PREFIX.length + API_KEY_VISIBLE_CHARS);
}

/**
 * SHA-256, hex. A fast hash is enough: the secret has 256 random bits, so nothing can be guessed
 * from the hash, unlike a password.
 */
export function hashApiKeySecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Whether a bearer token is meant as an API key (a JWT never starts like this). */
export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(API_KEY_SECRET_PREFIX);
}

/** Compares two hex hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}
