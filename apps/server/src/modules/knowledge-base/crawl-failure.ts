import { BlockedAddressError, CrossOriginRedirectError } from "../../lib/safe-network.ts";

/** A page the crawler reached but cannot use (an HTTP error, not a page, too large): its message says why. */
export class PageRefusedError extends Error {
  override name = "PageRefusedError";
}

/** The fields Node's socket, DNS and TLS errors carry (undici's carry `code` too). */
type SystemError = { name?: unknown; message?: unknown; code?: unknown; address?: unknown; port?: unknown };

const TIMEOUT_CODES = new Set([
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
const CLOSED_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);
const NO_ROUTE_CODES = new Set(["EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ENETDOWN"]);
/** OpenSSL's certificate codes and Node's TLS ones (nodejs.org/api/tls.html, x509 verification errors). */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|INVALID_PURPOSE)/;

/**
 * The errors of a failure, outermost first: fetch reports "fetch failed" and keeps the socket's
 * error as its cause; a connection tried on several addresses fails with an AggregateError of them.
 */
function causeChain(error: unknown): SystemError[] {
  const chain: SystemError[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth += 1) {
    chain.push(current as SystemError);
    current = current instanceof AggregateError ? current.errors[0] : (current as { cause?: unknown }).cause;
  }
  return chain;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

/** The sentence for one link of the chain, or null when it says nothing more than "fetch failed". */
function sentenceFor(e: SystemError, url: URL, timeoutSeconds: number): string | null {
  if (e instanceof PageRefusedError || e instanceof BlockedAddressError || e instanceof CrossOriginRedirectError)
    return e.message;
  const code = text(e.code);
  const host = url.host;
  if (e.name === "TimeoutError" || e.name === "AbortError" || TIMEOUT_CODES.has(code))
    return `${host} did not answer within ${timeoutSeconds} seconds (timeout).`;
  if (code === "ENOTFOUND") return `the host name ${url.hostname} was not found (DNS).`;
  if (code === "EAI_AGAIN")
    return `the host name ${url.hostname} could not be looked up: DNS did not answer (EAI_AGAIN).`;
  if (code === "ECONNREFUSED") {
    const where = typeof e.address === "string" && e.port != null ? `${e.address}:${String(e.port)}` : host;
    return `${where} refused the connection: nothing accepts connections there (ECONNREFUSED).`;
  }
  if (CLOSED_CODES.has(code)) return `${host} closed the connection before answering (${code}).`;
  if (NO_ROUTE_CODES.has(code)) return `${host} cannot be reached from this server: no network route (${code}).`;
  if (TLS_CODE.test(code) || (code === "EPROTO" && /SSL|TLS/i.test(text(e.message))))
    return `the TLS connection to ${host} failed: ${text(e.message)} (${code}).`;
  return null;
}

/**
 * Why a crawl's start page could not be read, named from the error's cause chain: DNS, a refused
 * connection, a timeout, TLS, the HTTP status, a blocked private address. A failure none of those
 * describe keeps every message of its chain, so "fetch failed" alone never reaches the user.
 */
export function crawlFailureReason(error: unknown, url: URL, timeoutSeconds: number): string {
  const chain = causeChain(error);
  for (const link of chain) {
    const sentence = sentenceFor(link, url, timeoutSeconds);
    if (sentence) return sentence;
  }
  const messages = chain.map((e) => text(e.message)).filter((m) => m && m !== "fetch failed");
  if (messages.length > 0) return `${messages.join(": ")}${/[.!?]$/.test(messages.at(-1) ?? "") ? "" : "."}`;
  return error instanceof Error && error.message ? `${error.message}.` : `${String(error)}.`;
}
