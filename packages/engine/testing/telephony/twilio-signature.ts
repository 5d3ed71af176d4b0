import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * X-Twilio-Signature as Twilio documents it ("Validating Signatures from Twilio"): take the full URL
 * of the request (with its query), append each POST parameter's name then value, sorted by name
 * (case-sensitive, byte order), HMAC-SHA1 the result with the account's auth token, base64 it.
 * A repeated parameter contributes each of its values, in sorted order.
 */
export function twilioSignature(
  authToken: string,
  url: string,
  params: URLSearchParams | Record<string, string>,
): string {
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  const names = [...new Set(entries.map(([name]) => name))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let data = url;
  for (const name of names) {
    const values = entries
      .filter(([key]) => key === name)
      .map(([, value]) => value)
      .sort();
    for (const value of values) data += name + value;
  }
  return createHmac("sha1", authToken).update(data, "utf8").digest("base64");
}

/** Checks a signature the way Twilio's helper libraries do (constant-time compare). */
export function checkTwilioSignature(
  authToken: string,
  url: string,
  params: URLSearchParams | Record<string, string>,
  signature: string,
): boolean {
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
