import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { headerValue } from "../../telephony/form.ts";
import type { WebhookRequest } from "../../telephony/types.ts";

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the account's public key is the raw 32 bytes after it. */
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
/** Telnyx advises refusing webhooks older than this, against replays. */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/**
 * The account's public key: base64 of the raw 32 bytes as the portal shows it, or a PEM (whose
 * line breaks a one-line field may have dropped, so only the base64 between the markers is read).
 */
export function ed25519PublicKey(publicKey: string): KeyObject | null {
  try {
    const base64 = publicKey.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, "").replace(/\s+/g, "");
    const der = Buffer.from(base64, "base64");
    if (der.length === 32) {
      return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, der]), format: "der", type: "spki" });
    }
    return createPublicKey({ key: der, format: "der", type: "spki" });
  } catch {
    return null;
  }
}

/**
 * Checks `telnyx-signature-ed25519` (base64 Ed25519 signature of `${telnyx-timestamp}|${rawBody}`)
 * with the account's public key, and that the timestamp is recent.
 */
export function verifyTelnyxSignature(publicKey: string, request: WebhookRequest, nowMs = Date.now()): boolean {
  const signature = headerValue(request.headers, "telnyx-signature-ed25519");
  const timestamp = headerValue(request.headers, "telnyx-timestamp");
  const key = ed25519PublicKey(publicKey);
  if (!signature || !timestamp || !key) return false;
  const seconds = Number(timestamp);
  if (!Number.isFinite(seconds) || Math.abs(nowMs / 1000 - seconds) > TIMESTAMP_TOLERANCE_SECONDS) return false;
  try {
    return verify(null, Buffer.from(`${timestamp}|${request.rawBody}`), key, Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
}
