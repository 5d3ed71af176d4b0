import type { BindingStore, Peer, RegisterAttempt, RegisterGuard } from "@parley/sip";
import type { FastifyBaseLogger } from "fastify";
import { bindingOrigin } from "./request-origin.ts";

/**
 * Password guessing on the registrar: failed digest authentications are counted per extension
 * (address of record) and per source address within a sliding window; a key that reaches its limit
 * is turned away (503 with Retry-After, see REGISTER_BLOCKED) for a back-off period without its
 * digest being checked. The counts live in this process's memory: behind a load balancer each
 * process limits what it sees, which still bounds a guesser to a few tries a minute per process.
 */

export interface RegisterLimits {
  /** Failed digests per extension within the window before it is blocked. */
  perExtension: number;
  /** Failed digests per source address (any extension) within the window before it is blocked. */
  perSource: number;
  windowMs: number;
  /** How long a blocked extension or source is turned away. */
  backoffMs: number;
}

export const REGISTER_LIMITS: RegisterLimits = { perExtension: 5, perSource: 20, windowMs: 60_000, backoffMs: 60_000 };

/** Failures of one key within the window, oldest first, and until when it is blocked. */
interface Failures {
  times: number[];
  blockedUntil: number;
}

/** Counts failures by key and says how long a key is still blocked. */
class FailureCounter {
  private readonly keys = new Map<string, Failures>();

  constructor(
    private readonly limit: number,
    private readonly limits: RegisterLimits,
  ) {}

  /** Milliseconds the key is still blocked for, 0 when it is not. */
  blockedFor(key: string, now: number): number {
    return Math.max(0, (this.keys.get(key)?.blockedUntil ?? 0) - now);
  }

  /** Counts one failure; returns the failures within the window and whether this one started a block. */
  add(key: string, now: number): { count: number; blocked: boolean } {
    const entry = this.keys.get(key) ?? { times: [], blockedUntil: 0 };
    entry.times = entry.times.filter((t) => now - t < this.limits.windowMs);
    entry.times.push(now);
    this.keys.set(key, entry);
    const blocked = entry.times.length >= this.limit && entry.blockedUntil <= now;
    if (blocked) entry.blockedUntil = now + this.limits.backoffMs;
    return { count: entry.times.length, blocked };
  }

  /** Forgets keys with no failure in the window and no block left, so guessed names do not pile up. */
  sweep(now: number): void {
    for (const [key, entry] of this.keys) {
      const last = entry.times.at(-1) ?? 0;
      if (now - last >= this.limits.windowMs && entry.blockedUntil <= now) this.keys.delete(key);
    }
  }
}

const hostPort = (peer: Peer) =>
  peer.address.includes(":") ? `[${peer.address}]:${peer.port}` : `${peer.address}:${peer.port}`;

export interface RegisterRateLimit extends RegisterGuard {
  /** Drops what no longer counts; the registrar calls it with its binding sweep. */
  sweep(): void;
}

/**
 * The registrar's guard. A blocked extension still lets in the sources that hold one of its current
 * bindings: someone guessing an extension's password must not lock its registered phone out.
 */
export function registerRateLimit(
  deps: {
    store: BindingStore;
    log: FastifyBaseLogger;
    now: () => Date;
    /** SIP_TRUSTED_PROXIES: bindings made through them are told apart by their Contact's host. */
    trustedProxies?: readonly string[];
  },
  limits: RegisterLimits = REGISTER_LIMITS,
): RegisterRateLimit {
  const extensions = new FailureCounter(limits.perExtension, limits);
  const sources = new FailureCounter(limits.perSource, limits);
  const aor = (a: RegisterAttempt) => `${a.username}@${a.domain}`;
  const seconds = (ms: number) => Math.ceil(ms / 1000);
  return {
    async retryAfter(attempt) {
      const now = deps.now().getTime();
      const sourceWait = sources.blockedFor(attempt.source.address, now);
      if (sourceWait > 0) return seconds(sourceWait);
      const extensionWait = extensions.blockedFor(aor(attempt), now);
      if (extensionWait === 0) return 0;
      const bindings = await deps.store.list(attempt.username, attempt.domain);
      const trusted = deps.trustedProxies ?? [];
      return bindings.some((b) => bindingOrigin(b, trusted) === attempt.source.address) ? 0 : seconds(extensionWait);
    },
    failed(attempt) {
      const now = deps.now().getTime();
      const extension = extensions.add(aor(attempt), now);
      const source = sources.add(attempt.source.address, now);
      // Who guessed what and how often; the password never reaches the registrar, let alone the log.
      const fields = {
        extension: aor(attempt),
        source: hostPort(attempt.source),
        transport: attempt.source.transport,
        extensionFailures: extension.count,
        sourceFailures: source.count,
        windowSeconds: seconds(limits.windowMs),
      };
      deps.log.warn(fields, "SIP REGISTER failed digest authentication");
      if (extension.blocked) {
        deps.log.warn(
          { ...fields, blockedSeconds: seconds(limits.backoffMs) },
          "SIP REGISTER blocked for the extension: too many failed digest authentications",
        );
      }
      if (source.blocked) {
        deps.log.warn(
          { ...fields, blockedSeconds: seconds(limits.backoffMs) },
          "SIP REGISTER blocked for the source address: too many failed digest authentications",
        );
      }
    },
    sweep() {
      const now = deps.now().getTime();
      extensions.sweep(now);
      sources.sweep(now);
    },
  };
}
