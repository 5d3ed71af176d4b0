import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { headerValue } from "../../telephony/form.ts";
import { decodeJwtPart } from "../../telephony/jwt.ts";
import type { WebhookNonce, WebhookRequest } from "../../telephony/types.ts";

/**
 * Vonage's signed webhooks (https://developer.vonage.com/en/getting-started/concepts/webhooks#decoding-signed-webhooks):
 * `Authorization: Bearer <JWT>`, HS256 with the account's signature secret, claims `iat`, `jti`,
 * `iss`, `api_key`, `application_id` and `payload_hash`, the SHA-256 hex of the payload. Vonage's
 * Voice API support note says what the payload is: the body of a POST; for a GET, the query
 * parameters as a JSON object in their order, without whitespace. The token carries no `exp`, so
 * its age is judged by `iat`.
 */

/** How long after its `iat` a token is accepted. */
export const WEBHOOK_TOKEN_LIFETIME_SECONDS = 300;
/** Clocks differ: a token may be this much younger (iat ahead of ours) or older than the lifetime. */
export const WEBHOOK_CLOCK_SKEW_SECONDS = 30;

const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

/** What `payload_hash` must be for this request: the raw body, or a GET's query as compact JSON. */
export function expectedPayloadHash(request: WebhookRequest): string {
  if (request.method === "POST") return sha256Hex(request.rawBody);
  return sha256Hex(JSON.stringify(Object.fromEntries(new URL(request.url).searchParams)));
}

function bearerToken(request: WebhookRequest): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(headerValue(request.headers, "authorization") ?? "")?.[1];
}

/** The token's claims when its HS256 signature is the secret's; null otherwise. */
function signedClaims(token: string, secret: string): Record<string, unknown> | null {
  const [header, claims, signature] = token.split(".");
  const head = decodeJwtPart(header);
  const payload = decodeJwtPart(claims);
  if (!head || !payload || !signature || head.alg !== "HS256") return null;
  const expected = createHmac("sha256", secret).update(`${header}.${claims}`).digest();
  const given = Buffer.from(signature, "base64url");
  return given.length === expected.length && timingSafeEqual(given, expected) ? payload : null;
}

/** True while a token issued at `iat` (seconds) is accepted at `nowMs`. */
function fresh(iat: unknown, exp: unknown, nowMs: number): boolean {
  const now = nowMs / 1000;
  if (typeof iat !== "number" || !Number.isFinite(iat)) return false;
  if (iat > now + WEBHOOK_CLOCK_SKEW_SECONDS) return false;
  if (iat < now - WEBHOOK_TOKEN_LIFETIME_SECONDS - WEBHOOK_CLOCK_SKEW_SECONDS) return false;
  return typeof exp !== "number" || exp >= now - WEBHOOK_CLOCK_SKEW_SECONDS;
}

/**
 * Checks a signed webhook: the bearer token is HS256 with `secret`, was issued within the last five
 * minutes (with the clock skew above), has a `jti`, and its `payload_hash` is the hash of this
 * request's payload (body or GET query), so no parameter the server reads is outside the signature.
 */
export function verifySignedWebhook(request: WebhookRequest, secret: string, nowMs = Date.now()): boolean {
  const token = bearerToken(request);
  const claims = token ? signedClaims(token, secret) : null;
  if (!claims || !fresh(claims.iat, claims.exp, nowMs)) return false;
  if (typeof claims.jti !== "string" || !claims.jti) return false;
  const hash = typeof claims.payload_hash === "string" ? Buffer.from(claims.payload_hash) : Buffer.alloc(0);
  const expected = Buffer.from(expectedPayloadHash(request));
  return hash.length === expected.length && timingSafeEqual(hash, expected);
}

/** The token's `jti`, kept until the token's acceptance window closes (read after verifySignedWebhook). */
export function signedWebhookNonce(request: WebhookRequest): WebhookNonce | null {
  const claims = decodeJwtPart(bearerToken(request)?.split(".")[1]);
  if (typeof claims?.jti !== "string" || typeof claims.iat !== "number") return null;
  const until = claims.iat + WEBHOOK_TOKEN_LIFETIME_SECONDS + WEBHOOK_CLOCK_SKEW_SECONDS;
  return { id: claims.jti, expiresAt: new Date(until * 1000) };
}
