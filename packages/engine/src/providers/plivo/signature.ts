import { createHmac, timingSafeEqual } from "node:crypto";
import { headerValue } from "../../telephony/form.ts";
import type { WebhookRequest } from "../../telephony/types.ts";

/**
 * Plivo's V3 webhook signature (`X-Plivo-Signature-V3`, `X-Plivo-Signature-V3-Nonce`), computed as
 * Plivo's own SDKs do: the URL without its query, then `?` and the query parameters sorted
 * (`k=v` joined by `&`), then for a POST with parameters a `.` (only after a non-empty query)
 * and the body parameters sorted, each as its name followed by its value with nothing between or
 * around them (as plivo-node and plivo-python build it), then `.` and the nonce; HMAC-SHA256 with
 * the auth token, base64. Accounts with several tokens get comma-separated signatures.
 */

type Params = Map<string, string[]>;

function collect(entries: Iterable<[string, string]>, into: Params = new Map()): Params {
  for (const [key, value] of entries) into.set(key, [...(into.get(key) ?? []), value]);
  return into;
}

/** Sorted by name, then value: `name=value` in a query, `namevalue` in the body part. */
function sortedPairs(params: Params, separator: string): string[] {
  return [...params.keys()]
    .sort()
    .flatMap((key) => [...(params.get(key) ?? [])].sort().map((value) => `${key}${separator}${value}`));
}

/** The string Plivo signs (before `.nonce`). */
export function signedBase(method: "GET" | "POST", url: string, body: Params): string {
  const parsed = new URL(url);
  const base = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  if (method === "GET") {
    const merged: Params = collect(parsed.searchParams);
    for (const [key, values] of body) merged.set(key, [...(merged.get(key) ?? []), ...values]);
    const query = sortedPairs(merged, "=");
    return query.length > 0 ? `${base}?${query.join("&")}` : base;
  }
  const query = sortedPairs(collect(parsed.searchParams), "=").join("&");
  const hasBody = body.size > 0;
  let signed = base;
  if (query || hasBody) signed += `?${query}`;
  if (query && hasBody) signed += ".";
  return signed + sortedPairs(body, "").join("");
}

export function plivoSignature(authToken: string, base: string, nonce: string): string {
  return createHmac("sha256", authToken).update(`${base}.${nonce}`).digest("base64");
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function verifyPlivoSignature(authToken: string, request: WebhookRequest): boolean {
  const signatures = headerValue(request.headers, "x-plivo-signature-v3");
  const nonce = headerValue(request.headers, "x-plivo-signature-v3-nonce");
  if (!signatures || !nonce) return false;
  const body = request.method === "POST" ? collect(new URLSearchParams(request.rawBody)) : new Map();
  let expected: string;
  try {
    expected = plivoSignature(authToken, signedBase(request.method, request.url, body), nonce);
  } catch {
    return false;
  }
  return signatures.split(",").some((signature) => sameText(signature.trim(), expected));
}
