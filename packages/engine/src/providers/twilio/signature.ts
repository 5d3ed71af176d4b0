import { validateRequest } from "twilio/lib/webhooks/webhooks.js";
import { headerValue, parseForm } from "../../telephony/form.ts";
import type { WebhookRequest } from "../../telephony/types.ts";

/**
 * Checks `X-Twilio-Signature` with the official helper: HMAC-SHA1 of the full URL followed by the
 * POST parameters sorted by name, keyed with the account's auth token
 * (https://www.twilio.com/docs/usage/webhooks/webhooks-security).
 */
export function verifyTwilioSignature(authToken: string, request: WebhookRequest): boolean {
  const signature = headerValue(request.headers, "x-twilio-signature");
  if (!signature) return false;
  const params = request.method === "POST" ? parseForm(request.rawBody) : {};
  return validateRequest(authToken, signature, request.url, params);
}
