import { createHash, createHmac, randomUUID, sign, timingSafeEqual } from "node:crypto";
import { base64url, decodeJwtPart } from "../../telephony/jwt.ts";

/**
 * The two JWTs of the Vonage Voice API: RS256 tokens Parley signs with the application's private
 * key to call the API (https://developer.vonage.com/en/getting-started/concepts/authentication#json-web-tokens),
 * and HS256 tokens Vonage signs with the account's signature secret on webhooks
 * (https://developer.vonage.com/en/getting-started/concepts/webhooks#decoding-signed-webhooks).
 */

/**
 * The private key as PEM. A key pasted into a one-line field arrives with its line breaks escaped
 * (`\n`) or dropped; PEM needs them, so the body between the markers is re-wrapped at 64.
 */
export function pemKey(privateKey: string): string {
  const text = privateKey.replace(/\\n/g, "\n").trim();
  const match = /^(-----BEGIN [A-Z ]+-----)([\s\S]*?)(-----END [A-Z ]+-----)$/.exec(text);
  if (!match) return text;
  const body = (match[2] ?? "").replace(/\s+/g, "");
  const lines = body.match(/.{1,64}/g) ?? [];
  return `${match[1]}\n${lines.join("\n")}\n${match[3]}\n`;
}

/** A short-lived RS256 token for the application (15 minutes, a fresh jti each time). */
export function applicationToken(applicationId: string, privateKey: string, nowMs = Date.now()): string {
  const iat = Math.floor(nowMs / 1000);
  const header = base64url(JSON.stringify({ alg: "RS256", typ: "JWT" }));
  const claims = base64url(JSON.stringify({ application_id: applicationId, iat, exp: iat + 900, jti: randomUUID() }));
  const signature = sign("RSA-SHA256", Buffer.from(`${header}.${claims}`), pemKey(privateKey));
  return `${header}.${claims}.${base64url(signature)}`;
}

/**
 * Checks a signed webhook's bearer token: HS256 with the signature secret, not expired, and its
 * `payload_hash` (SHA-256 hex of the body) matching the body received.
 */
export function verifySignedWebhook(token: string, secret: string, rawBody: string, nowMs = Date.now()): boolean {
  const [header, claims, signature] = token.split(".");
  const head = decodeJwtPart(header);
  const payload = decodeJwtPart(claims);
  if (!head || !payload || !signature || head.alg !== "HS256") return false;
  const expected = createHmac("sha256", secret).update(`${header}.${claims}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  if (typeof payload.exp === "number" && payload.exp < nowMs / 1000) return false;
  if (rawBody) {
    const hash = createHash("sha256").update(rawBody).digest("hex");
    if (payload.payload_hash !== hash) return false;
  }
  return true;
}
