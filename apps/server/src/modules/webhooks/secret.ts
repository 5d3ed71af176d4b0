import { randomBytes } from "node:crypto";
import { WEBHOOK_SECRET_PREFIX } from "@parley/contract";

/** A signing secret: "whsec_" and 192 random bits, base64url. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString("base64url")}`;
}
