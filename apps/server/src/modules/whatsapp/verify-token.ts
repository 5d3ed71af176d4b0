import { timingSafeEqual } from "node:crypto";
import { randomToken } from "../../lib/crypto.ts";

/**
 * The token the platform echoes when it verifies the webhook (GET hub.verify_token). It starts with
 * the number's digits so the GET, which carries nothing else, can find the number it belongs to;
 * the random rest is what makes it a secret.
 */
export function newVerifyToken(e164: string): string {
  return `${e164.replace(/\D/g, "")}.${randomToken(24)}`;
}

/** The E.164 number a verify token was made for, or null when it is not one of ours. */
export function numberOfVerifyToken(token: string): string | null {
  const match = /^([1-9][0-9]{6,14})\.[\w-]{16,}$/.exec(token);
  return match ? `+${match[1]}` : null;
}

export function sameToken(given: string, stored: string | null): boolean {
  if (stored === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
