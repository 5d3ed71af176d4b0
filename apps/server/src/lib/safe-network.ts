import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import type { NetworkDeps, WebSocketLike } from "@parley/engine";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import WebSocket from "ws";
import { AllowList, assertAddressAllowed, BlockedAddressError, bareHost } from "./address-policy.ts";

/**
 * The one outbound client for user-given URLs (functions, MCP servers, provider base URLs, crawls).
 * The address is checked where the socket is opened — resolve, check every address, connect to the
 * checked one — so DNS cannot change between a check and the request. Redirects are followed here,
 * one hop at a time, so each hop goes through the same check; a redirect to another origin is
 * refused when the request carries anything but the few headers that describe it (no credentials
 * ever reach a host the user did not type).
 */

export { BlockedAddressError } from "./address-policy.ts";

/** Resolves a host name to every address it has (injectable for tests). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export interface SafeNetworkPolicy {
  /** PARLEY_ALLOWED_PRIVATE_HOSTS: host names, IP addresses or CIDR ranges that may be private. */
  allowedPrivate: readonly string[];
  resolve?: Resolver;
}

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const systemResolve: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

/** Resolves `hostname` and returns its first address once every address has passed the policy. */
async function resolveChecked(allow: AllowList, resolve: Resolver, hostname: string): Promise<LookupAddress> {
  const host = bareHost(hostname);
  const family = isIP(host);
  if (family !== 0) {
    assertAddressAllowed(allow, host, host);
    return { address: host, family };
  }
  const addresses = await resolve(host);
  // Every address, not only the first: a name that also points inside the network is refused.
  for (const a of addresses) assertAddressAllowed(allow, host, a.address);
  const first = addresses[0];
  if (!first) throw new Error(`Could not resolve ${host}`);
  return first;
}

function safeAgent(allow: AllowList, resolve: Resolver): Agent {
  const connect = buildConnector({ timeout: 10_000 });
  return new Agent({
    connect(options, callback) {
      resolveChecked(allow, resolve, options.hostname).then(
        // `host` stays the original name, so TLS still verifies the certificate against it.
        ({ address }) => connect({ ...options, hostname: address }, callback),
        (error: Error) => callback(error, null),
      );
    },
  });
}

function assertHttpUrl(url: URL): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`Only http and https URLs can be fetched (got ${url.protocol.replace(/:$/, "")}).`);
  }
}

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

/** A Request object is taken apart so each redirect hop can be re-issued. */
function splitInput(input: FetchInput, init: FetchInit | undefined): { url: URL; init: FetchInit } {
  if (typeof input === "string" || input instanceof URL) return { url: new URL(input), init: { ...init } };
  const fromRequest: FetchInit = { method: input.method, headers: input.headers, signal: input.signal };
  if (input.body) Object.assign(fromRequest, { body: input.body, duplex: "half" });
  return { url: new URL(input.url), init: { ...fromRequest, ...init } };
}

/**
 * The only headers a redirect may carry to another origin (scheme, host, port): they describe the
 * request, never who makes it. Anything else — authorization, cookies, API-key headers, signatures,
 * session ids — was meant for the origin the caller chose.
 */
export const CROSS_ORIGIN_HEADERS: ReadonlySet<string> = new Set([
  "accept",
  "accept-language",
  "content-type",
  "content-length",
  "content-encoding",
  "user-agent",
]);

/**
 * A redirect to another origin that Parley did not follow because the request carried headers meant
 * only for its own origin. Following without them would fail at the other host in a way nobody can
 * explain (a 401 from a host the user never typed), so the caller gets this instead.
 */
export class CrossOriginRedirectError extends Error {
  /** Like BlockedAddressError's: the engine's vendor requests never retry a policy refusal by its code. */
  readonly code = "ERR_PARLEY_CROSS_ORIGIN_REDIRECT";
  constructor(
    /** The origin the request was meant for. */
    readonly from: string,
    /** The origin it was redirected to. */
    readonly to: string,
    /** The names (lower case) of the headers that would have gone to `to`. */
    readonly headers: readonly string[],
  ) {
    const which = headers.length === 1 ? `${headers[0]} header is` : `${headers.join(", ")} headers are`;
    super(`Refusing to follow a redirect from ${from} to ${to}: the request's ${which} only sent to ${from}.`);
    this.name = "CrossOriginRedirectError";
  }
}

/** The request for the next hop: 303 (and 301/302 after POST) become a GET without body, as browsers do. */
function nextHop(init: FetchInit, status: number, from: URL, to: URL): FetchInit {
  const method = (init.method ?? "GET").toUpperCase();
  const toGet = status === 303 ? method !== "HEAD" : (status === 301 || status === 302) && method === "POST";
  const headers = new Headers(init.headers);
  if (from.origin !== to.origin) {
    const meantForOrigin: string[] = [];
    headers.forEach((_value, name) => {
      if (!CROSS_ORIGIN_HEADERS.has(name)) meantForOrigin.push(name);
    });
    if (meantForOrigin.length > 0) throw new CrossOriginRedirectError(from.origin, to.origin, meantForOrigin);
  }
  if (!toGet) return { ...init, headers };
  for (const name of ["content-type", "content-length", "content-encoding"]) headers.delete(name);
  const { body: _body, ...rest } = init;
  return { ...rest, method: "GET", headers };
}

const replayable = (init: FetchInit) => init.body == null || !(init.body instanceof ReadableStream);

async function fetchOnce(agent: Agent, url: URL, init: FetchInit): Promise<Response> {
  try {
    const options = { ...init, redirect: "manual", dispatcher: agent } as Parameters<typeof undiciFetch>[1];
    return (await undiciFetch(url, options)) as unknown as Response;
  } catch (error) {
    // undici wraps connector failures as "fetch failed"; the policy's own message is the useful one.
    if (error instanceof TypeError && error.cause instanceof BlockedAddressError) throw error.cause;
    throw error;
  }
}

/** A `fetch` that refuses non-public addresses (unless allowed) on every hop, following at most 5 redirects. */
export function createSafeFetch(policy: SafeNetworkPolicy): typeof fetch {
  const allow = new AllowList(policy.allowedPrivate);
  const agent = safeAgent(allow, policy.resolve ?? systemResolve);
  return async (input, requestInit) => {
    let { url, init } = splitInput(input, requestInit);
    const mode = init.redirect ?? "follow";
    for (let hop = 0; ; hop += 1) {
      assertHttpUrl(url);
      const response = await fetchOnce(agent, url, init);
      const location = response.headers.get("location");
      if (mode === "manual" || !REDIRECT_STATUSES.has(response.status) || !location) return response;
      if (mode === "error") throw new TypeError(`Refusing to follow a redirect from ${url.origin}.`);
      if (!replayable(init) && response.status !== 303) return response;
      if (hop >= MAX_REDIRECTS)
        throw new TypeError(`Too many redirects (more than ${MAX_REDIRECTS}) from ${url.href}.`);
      await response.body?.cancel();
      const next = new URL(location, url);
      init = nextHop(init, response.status, url, next);
      url = next;
    }
  };
}

const fetchers = new WeakMap<SafeNetworkPolicy, typeof fetch>();

/** One-off safe fetch under `policy` (the agent is reused while the policy object lives). */
export function safeFetch(policy: SafeNetworkPolicy, input: FetchInput, init?: FetchInit): Promise<Response> {
  let f = fetchers.get(policy);
  if (!f) {
    f = createSafeFetch(policy);
    fetchers.set(policy, f);
  }
  return f(input, init);
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net/tls connect that only ever yields checked addresses. */
function checkedLookup(allow: AllowList, resolve: Resolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    resolveChecked(allow, resolve, hostname).then(
      (a) => (options.all ? callback(null, [a]) : callback(null, a.address, a.family)),
      (error: Error) => callback(error, ""),
    );
  };
}

function createSafeWebSocketOpener(policy: SafeNetworkPolicy): NonNullable<NetworkDeps["openWebSocket"]> {
  const allow = new AllowList(policy.allowedPrivate);
  const lookup = checkedLookup(allow, policy.resolve ?? systemResolve);
  return (rawUrl, options) => {
    const url = new URL(rawUrl);
    if (url.protocol === "http:" || url.protocol === "https:") url.protocol = url.protocol.replace("http", "ws");
    if (url.protocol !== "ws:" && url.protocol !== "wss:") {
      throw new TypeError(`Only ws and wss URLs can be opened (got ${url.protocol.replace(/:$/, "")}).`);
    }
    // Node skips `lookup` for IP literals, so those are checked here, before any socket exists.
    const host = bareHost(url.hostname);
    if (isIP(host) !== 0) assertAddressAllowed(allow, host, host);
    const socket = new WebSocket(url, options.protocols ?? [], {
      headers: options.headers,
      lookup,
      followRedirects: false,
    });
    return socket as unknown as WebSocketLike;
  };
}

/** The NetworkDeps the server hands to provider adapters, tool calls and crawlers. */
export function createSafeNetwork(policy: SafeNetworkPolicy): NetworkDeps {
  return { fetch: createSafeFetch(policy), openWebSocket: createSafeWebSocketOpener(policy) };
}
