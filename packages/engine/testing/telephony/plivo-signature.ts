import { createHmac } from "node:crypto";

/**
 * X-Plivo-Signature-V3 as Plivo documents it ("Validate requests from Plivo", signature V3) and as
 * its helper libraries compute it: the URL without its query, then "?" and the query parameters
 * (and, for GET, the request parameters) as sorted "key=value" pairs joined with "&"; for POST a
 * "." when there was a query, then the POST parameters sorted by name, each as name + value with no
 * separator; then "." and the nonce. HMAC-SHA256 with the auth token, base64.
 */
export function plivoSignatureV3(
  authToken: string,
  method: "GET" | "POST",
  url: string,
  params: Record<string, string>,
  nonce: string,
): string {
  const parsed = new URL(url);
  let base = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  const query = new Map<string, string[]>();
  const add = (key: string, value: string) => query.set(key, [...(query.get(key) ?? []), value]);
  for (const [key, value] of parsed.searchParams) add(key, value);
  if (method === "GET") for (const [key, value] of Object.entries(params)) add(key, value);
  const sortedQuery = [...query.keys()]
    .sort()
    .flatMap((key) => [...(query.get(key) ?? [])].sort().map((value) => `${key}=${value}`))
    .join("&");
  const hasPost = method === "POST" && Object.keys(params).length > 0;
  if (sortedQuery.length > 0 || hasPost) base += `?${sortedQuery}`;
  if (sortedQuery.length > 0 && hasPost) base += ".";
  if (method === "POST") {
    base += Object.keys(params)
      .sort()
      .map((key) => `${key}${params[key]}`)
      .join("");
  }
  return createHmac("sha256", authToken).update(`${base}.${nonce}`, "utf8").digest("base64");
}
