import { createHash, createHmac, createPublicKey, randomUUID, timingSafeEqual, verify } from "node:crypto";
import { base64url, decodeJwtPart } from "../../src/telephony/jwt.ts";

/**
 * The two JSON Web Tokens of Vonage's Voice API: RS256 tokens the app signs with its application's
 * private key to call the API (claims application_id, iat, jti, optional exp/nbf), and HS256 tokens
 * Vonage puts on its signed webhooks (Authorization: Bearer), signed with the account's signature
 * secret, whose payload_hash is the SHA-256 of the request's payload.
 */

/** Checks an RS256 token against a PEM public key; returns its claims, or a reason it is refused. */
export function verifyRs256(token: string, publicKeyPem: string): Record<string, unknown> | string {
  const [head, body, signature] = token.split(".");
  const header = decodeJwtPart(head);
  const claims = decodeJwtPart(body);
  if (!header || !claims || !signature) return "malformed token";
  if (header.alg !== "RS256") return `alg ${String(header.alg)} is not RS256`;
  const ok = verify(
    "RSA-SHA256",
    Buffer.from(`${head}.${body}`),
    createPublicKey(publicKeyPem),
    Buffer.from(signature, "base64url"),
  );
  if (!ok) return "bad signature";
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp === "number" && claims.exp < now) return "token expired";
  if (typeof claims.nbf === "number" && claims.nbf > now + 60) return "token not yet valid";
  return claims;
}

/**
 * What a signed webhook's `payload_hash` covers, as Vonage's Voice API support note describes it:
 * a POST's body as sent; for a GET, its query parameters as a JSON object in their order, without
 * whitespace.
 */
export function webhookPayload(method: string, url: string, body: string): string {
  if (method.toUpperCase() !== "GET") return body;
  return JSON.stringify(Object.fromEntries(new URL(url).searchParams));
}

/**
 * The HS256 token Vonage signs a webhook with: `iat` now, a fresh `jti`, `payload_hash` the SHA-256
 * hex of `payload` (see webhookPayload). `iat` and `jti` can be set (tests of stale or reused tokens).
 */
export function signWebhookJwt(
  secret: string,
  claims: { apiKey: string; applicationId: string; payload: string; iat?: number; jti?: string },
): string {
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(
    JSON.stringify({
      iat: claims.iat ?? Math.floor(Date.now() / 1000),
      jti: claims.jti ?? randomUUID(),
      iss: "Vonage",
      payload_hash: createHash("sha256").update(claims.payload).digest("hex"),
      api_key: claims.apiKey,
      application_id: claims.applicationId,
    }),
  );
  const signature = createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

/** Checks an HS256 webhook token (for the self-tests): signature, then payload_hash against the payload. */
export function checkWebhookJwt(secret: string, token: string, payload: string): boolean {
  const [head, claims, signature] = token.split(".");
  if (!head || !claims || !signature) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${head}.${claims}`).digest("base64url"));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  return decodeJwtPart(claims)?.payload_hash === createHash("sha256").update(payload).digest("hex");
}
