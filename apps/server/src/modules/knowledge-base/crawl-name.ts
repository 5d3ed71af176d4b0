import { domainToUnicode } from "node:url";

const NAME_MAX = 80;

/** Percent-decoded for reading ("/über" not "/%C3%BCber"), without control characters. */
function readable(part: string): string {
  let decoded = part;
  try {
    decoded = decodeURIComponent(part);
  } catch {
    // A malformed escape stays as typed.
  }
  return decoded.replace(/\p{Cc}/gu, "");
}

/**
 * A crawl's name: host (without "www.") and path (without a trailing slash) and query, so crawls of
 * two pages of one site differ — "docs.example.com/guide". A long one keeps the host and the end of
 * the path ("docs.example.com/…/install/linux"): the host says which site, the end which page.
 */
export function crawlName(url: URL): string {
  // "bücher.example" rather than its punycode "xn--bcher-kva.example"; an IP address stays as it is.
  const hostname = domainToUnicode(url.hostname) || url.hostname;
  const host = `${hostname.replace(/^www\./, "")}${url.port ? `:${url.port}` : ""}`;
  const rest = Array.from(readable(url.pathname).replace(/\/+$/, "") + readable(url.search));
  const name = Array.from(host).concat(rest);
  if (name.length <= NAME_MAX) return name.join("");
  const room = NAME_MAX - Array.from(host).length - 2;
  if (room < 12) return `${name.slice(0, NAME_MAX - 1).join("")}…`;
  const tail = rest.slice(-room).join("");
  const segment = tail.indexOf("/");
  return `${host}/…${segment >= 0 ? tail.slice(segment) : tail}`;
}
