import { randomUUID, sign } from "node:crypto";
import { base64url } from "../../telephony/jwt.ts";

/**
 * The two JWTs of the Vonage Voice API: RS256 tokens Parley signs with the application's private
 * key to call the API (https://developer.vonage.com/en/getting-started/concepts/authentication#json-web-tokens),
 * and HS256 tokens Vonage signs with the account's signature secret on webhooks (checked in
 * signed-webhook.ts).
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
