import { isRecord } from "./form.ts";

/** The pieces of a JSON Web Token (RFC 7519) that carriers sign API calls and webhooks with. */

export function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString("base64url");
}

/** A token's header or claims part as its JSON object; null when it is not one. */
export function decodeJwtPart(part: string | undefined): Record<string, unknown> | null {
  if (!part) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}
