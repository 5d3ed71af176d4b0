import { type NonceIssuer, parseDigest, verifyDigest } from "./digest.ts";
import type { IncomingRequest } from "./stack.ts";
import type { Peer } from "./transport.ts";
import { parseNameAddr, parseUri } from "./uri.ts";

/**
 * A registrar (RFC 3261 §10.3): digest-authenticated REGISTER binds Contacts to an address of
 * record for a while; Expires 0 (or "Contact: *") removes them. Bindings live behind a store
 * interface so that any process can read them.
 */

export interface Binding {
  username: string;
  domain: string;
  /** The Contact URI the phone registered. */
  contact: string;
  /** Where the REGISTER really came from: INVITEs for the phone go here (it may be behind NAT). */
  source: Peer;
  expiresAt: Date;
}

export interface BindingStore {
  save(binding: Binding): Promise<void>;
  /** Removes one contact, or every contact of the address of record when contact is null. */
  remove(username: string, domain: string, contact: string | null): Promise<void>;
  /** Current (unexpired) bindings. */
  list(username: string, domain: string): Promise<Binding[]>;
}

/** One REGISTER as a rate limit sees it: the address of record it names and where it came from. */
export interface RegisterAttempt {
  username: string;
  domain: string;
  source: Peer;
}

/**
 * Limits password guessing. `retryAfter` is asked before anything else: seconds to turn the request
 * away for, or 0 to go on. `failed` hears of every REGISTER refused for a wrong digest.
 */
export interface RegisterGuard {
  retryAfter(attempt: RegisterAttempt): number | Promise<number>;
  failed(attempt: RegisterAttempt): void;
}

/**
 * The answer to a REGISTER turned away by the guard: 503 with Retry-After (RFC 3261 §21.5.4,
 * §20.33), which user agents treat as "try again in N seconds". Not 403: §21.4.4 says a request
 * refused with 403 "SHOULD NOT be repeated", so a phone locked out by someone else's guesses would
 * stop registering for good.
 */
export const REGISTER_BLOCKED = { status: 503, reason: "Too Many Failed Attempts" } as const;

export interface RegistrarOptions {
  store: BindingStore;
  /** Rate limit on failed digests; without it every attempt is checked. */
  guard?: RegisterGuard;
  /** The HA1 (MD5 of user:realm:password) of an account, the realm being its domain; null when unknown. */
  ha1(username: string, domain: string): Promise<string | null>;
  nonces: NonceIssuer;
  /**
   * Who sent the REGISTER, for the rate limit: the transport's peer by default. Behind a SIP proxy
   * every request comes from the proxy, which names the phone's own address in a header it sets.
   * (The binding keeps the transport's peer: that is where requests for the phone must go.)
   */
  originOf?: (request: IncomingRequest) => Peer;
  now?: () => Date;
  minExpires?: number;
  maxExpires?: number;
  defaultExpires?: number;
}

/** Answers one REGISTER. Resolves with the address of record it changed, or null. */
export async function handleRegister(
  request: IncomingRequest,
  options: RegistrarOptions,
): Promise<{ username: string; domain: string } | null> {
  const { message } = request;
  const now = options.now ?? (() => new Date());
  const minExpires = options.minExpires ?? 30;
  const maxExpires = options.maxExpires ?? 3600;
  const to = parseUri(parseNameAddr(message.headers.get("to") ?? "").uri);
  const domain = (to?.host ?? parseUri(message.uri)?.host ?? "").toLowerCase();
  const username = to?.user ?? "";
  if (!username || !domain) {
    await request.reply(400, { reason: "Missing address of record" });
    return null;
  }
  const attempt: RegisterAttempt = { username, domain, source: options.originOf?.(request) ?? request.from };
  const wait = options.guard ? await options.guard.retryAfter(attempt) : 0;
  if (wait > 0) {
    await request.reply(REGISTER_BLOCKED.status, {
      reason: REGISTER_BLOCKED.reason,
      headers: [["Retry-After", String(Math.ceil(wait))]],
    });
    return null;
  }
  const challenge = (stale = false) =>
    request.reply(401, { headers: [["WWW-Authenticate", options.nonces.challenge(domain, stale)]] });
  const authorization = message.headers.get("authorization");
  const params = authorization ? parseDigest(authorization) : null;
  if (!params) {
    await challenge();
    return null;
  }
  const ha1 = params.username === username ? await options.ha1(username, domain) : null;
  const check = ha1 ? verifyDigest(params, { method: "REGISTER", realm: domain, ha1 }, options.nonces) : "invalid";
  if (check === "stale") {
    await challenge(true);
    return null;
  }
  if (check !== "ok") {
    options.guard?.failed(attempt);
    await request.reply(403);
    return null;
  }

  const headerExpires = message.headers.get("expires");
  const contacts = message.headers.getAll("contact");
  if (contacts.length === 1 && contacts[0]?.trim() === "*") {
    if (headerExpires?.trim() !== "0") {
      await request.reply(400, { reason: "Wildcard Contact needs Expires: 0" });
      return null;
    }
    await options.store.remove(username, domain, null);
    await request.reply(200);
    return { username, domain };
  }
  for (const value of contacts) {
    const contact = parseNameAddr(value);
    const asked = Number(contact.params.expires ?? headerExpires ?? options.defaultExpires ?? 3600);
    const expires = Number.isFinite(asked) ? Math.min(Math.max(0, Math.floor(asked)), maxExpires) : 3600;
    if (expires > 0 && expires < minExpires) {
      await request.reply(423, { reason: "Interval Too Brief", headers: [["Min-Expires", String(minExpires)]] });
      return null;
    }
    if (expires === 0) await options.store.remove(username, domain, contact.uri);
    else
      await options.store.save({
        username,
        domain,
        contact: contact.uri,
        source: request.from,
        expiresAt: new Date(now().getTime() + expires * 1000),
      });
  }
  const current = await options.store.list(username, domain);
  const headers: [string, string][] = current.map((b) => [
    "Contact",
    `<${b.contact}>;expires=${Math.max(0, Math.round((b.expiresAt.getTime() - now().getTime()) / 1000))}`,
  ]);
  headers.push(["Date", now().toUTCString()]);
  await request.reply(200, { headers });
  return { username, domain };
}
