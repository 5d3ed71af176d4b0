import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { randomToken } from "./uri.ts";

/**
 * HTTP digest authentication as SIP uses it (RFC 3261 §22, RFC 2617): MD5 with qop=auth.
 * The server side issues nonces that carry their own issue time and an HMAC, so any process that
 * shares the secret can verify them and no nonce table is kept.
 */

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

/** HA1 = MD5(username:realm:password): what is stored instead of an extension's password. */
export const digestHa1 = (username: string, realm: string, password: string) => md5(`${username}:${realm}:${password}`);

/** Parses the parameters of a `Digest k="v", k2=v2` header value. */
export function parseDigest(header: string): Record<string, string> | null {
  const match = /^\s*digest\s+(.*)$/is.exec(header);
  if (!match?.[1]) return null;
  const params: Record<string, string> = {};
  const re = /([a-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/gi;
  for (const m of match[1].matchAll(re)) {
    if (m[1]) params[m[1].toLowerCase()] = m[2] ?? m[3] ?? "";
  }
  return params;
}

export interface NonceIssuer {
  /** A `WWW-Authenticate` / `Proxy-Authenticate` value for the realm. */
  challenge(realm: string, stale?: boolean): string;
  /** Whether a nonce was issued by this secret and is younger than the lifetime. */
  nonceValid(nonce: string): boolean;
}

/** Nonces valid for `lifetimeMs`, signed with `secret`. */
export function createNonceIssuer(
  secret: string | Buffer,
  lifetimeMs = 5 * 60_000,
  now = () => Date.now(),
): NonceIssuer {
  const sign = (stamp: string) => createHmac("sha256", secret).update(stamp).digest("hex").slice(0, 32);
  return {
    challenge(realm, stale = false) {
      const stamp = `${now().toString(36)}.${randomToken(6)}`;
      const nonce = `${stamp}.${sign(stamp)}`;
      return `Digest realm="${realm}", nonce="${nonce}", algorithm=MD5, qop="auth"${stale ? ", stale=true" : ""}`;
    },
    nonceValid(nonce) {
      const parts = nonce.split(".");
      if (parts.length !== 3) return false;
      const [time, salt, mac] = parts as [string, string, string];
      const expected = Buffer.from(sign(`${time}.${salt}`));
      const given = Buffer.from(mac);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
      const issued = Number.parseInt(time, 36);
      return Number.isFinite(issued) && now() - issued <= lifetimeMs && issued <= now() + 1000;
    },
  };
}

export type DigestCheck = "ok" | "missing" | "stale" | "invalid";

/**
 * Verifies an Authorization value against the stored HA1 for a request: the response hash, the
 * realm, and the nonce's signature and age. `stale` asks the client to retry with a fresh nonce.
 */
export function verifyDigest(
  params: Record<string, string>,
  request: { method: string; realm: string; ha1: string },
  nonces: NonceIssuer,
): DigestCheck {
  const { username, nonce, uri, response, qop, nc, cnonce } = params;
  if (!username || !nonce || !uri || !response) return "invalid";
  if (params.realm !== request.realm) return "invalid";
  if (params.algorithm && params.algorithm.toUpperCase() !== "MD5") return "invalid";
  const ha2 = md5(`${request.method}:${uri}`);
  const expected =
    qop === "auth"
      ? md5(`${request.ha1}:${nonce}:${nc ?? ""}:${cnonce ?? ""}:auth:${ha2}`)
      : md5(`${request.ha1}:${nonce}:${ha2}`);
  const a = Buffer.from(expected);
  const b = Buffer.from(response.toLowerCase());
  if (a.length !== b.length || !timingSafeEqual(a, b)) return "invalid";
  return nonces.nonceValid(nonce) ? "ok" : "stale";
}

/**
 * The client side: an Authorization / Proxy-Authorization value answering a challenge
 * (qop=auth when offered, else the RFC 2069 form).
 */
export function answerChallenge(
  challenge: string,
  credentials: { username: string; password: string },
  request: { method: string; uri: string },
  nc = 1,
): string | null {
  const params = parseDigest(challenge);
  if (!params?.realm || !params.nonce) return null;
  if (params.algorithm && params.algorithm.toUpperCase() !== "MD5") return null;
  const { realm, nonce, opaque } = params;
  const ha1 = digestHa1(credentials.username, realm, credentials.password);
  const ha2 = md5(`${request.method}:${request.uri}`);
  const qops = (params.qop ?? "").split(",").map((q) => q.trim().toLowerCase());
  const parts = [`username="${credentials.username}"`, `realm="${realm}"`, `nonce="${nonce}"`, `uri="${request.uri}"`];
  if (qops.includes("auth")) {
    const ncText = nc.toString(16).padStart(8, "0");
    const cnonce = randomToken(8);
    const response = md5(`${ha1}:${nonce}:${ncText}:${cnonce}:auth:${ha2}`);
    parts.push(`response="${response}"`, "qop=auth", `nc=${ncText}`, `cnonce="${cnonce}"`);
  } else {
    parts.push(`response="${md5(`${ha1}:${nonce}:${ha2}`)}"`);
  }
  parts.push("algorithm=MD5");
  if (opaque !== undefined) parts.push(`opaque="${opaque}"`);
  return `Digest ${parts.join(", ")}`;
}
