import { jwtVerify, SignJWT } from "jose";

/** The claims spec §3 says the web app reads from an access token. */
export interface AccessClaims {
  id: string;
  username: string;
  is_superuser: boolean;
  tier_id: string | null;
  workspace_id: string | null;
}

/** The account fields a token carries. */
export interface TokenSubject {
  id: string;
  username: string;
  isSuperuser: boolean;
  tierId: string | null;
  /** The account's session generation now: a later password change or reset cuts the token. */
  sessionGeneration: number;
}

/**
 * Which session a token belongs to: `sid`, the sign-in's refresh-token family (null for a token
 * signed outside a session), and `gen`, the account's session generation when it was minted.
 */
export interface SessionClaims {
  sessionId: string | null;
  sessionGeneration: number;
}

/** What a verified token says: its spec claims and the session it belongs to. */
export type VerifiedClaims = AccessClaims & SessionClaims;

export interface AccessTokens {
  sign(claims: AccessClaims, session?: SessionClaims): Promise<string>;
  /** A token for the user, acting in the given workspace (or none), for one of their sessions. */
  forUser(user: TokenSubject, workspaceId: string | null, sessionId: string | null): Promise<string>;
  /** Returns the claims, or null for a token that is expired, forged or malformed. */
  verify(token: string): Promise<VerifiedClaims | null>;
}

/** How many verified tokens a process remembers (about one per active session; a few hundred bytes each). */
const VERIFIED_TOKENS_KEPT = 10_000;

export function createAccessTokens(key: Buffer, ttlSeconds: number): AccessTokens {
  const verified = new Map<string, { claims: VerifiedClaims; exp: number }>();
  const sign = (claims: AccessClaims, session: SessionClaims = { sessionId: null, sessionGeneration: 0 }) =>
    new SignJWT({ ...claims, sid: session.sessionId, gen: session.sessionGeneration })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(claims.id)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .setIssuer("parley")
      .sign(key);
  return {
    sign,
    forUser: (user, workspaceId, sessionId) =>
      sign(
        {
          id: user.id,
          username: user.username,
          is_superuser: user.isSuperuser,
          tier_id: user.tierId,
          workspace_id: workspaceId,
        },
        { sessionId, sessionGeneration: user.sessionGeneration },
      ),
    async verify(token) {
      // A token seen before verified the same way (the same bytes carry the same signature): only
      // its expiry can have changed. Checking the signature again was most of a request's crypto
      // (issue 35); whether the account may still use it is checked on every request elsewhere.
      const known = verified.get(token);
      if (known) {
        if (known.exp > Math.floor(Date.now() / 1000)) return { ...known.claims };
        verified.delete(token);
      }
      try {
        // A token without an expiry would be valid forever: refuse it even when the signature holds.
        const { payload } = await jwtVerify(token, key, {
          issuer: "parley",
          algorithms: ["HS256"],
          requiredClaims: ["exp", "iat"],
        });
        if (typeof payload.id !== "string" || typeof payload.username !== "string") return null;
        const claims: VerifiedClaims = {
          id: payload.id,
          username: payload.username,
          is_superuser: payload.is_superuser === true,
          tier_id: typeof payload.tier_id === "string" ? payload.tier_id : null,
          workspace_id: typeof payload.workspace_id === "string" ? payload.workspace_id : null,
          sessionId: typeof payload.sid === "string" ? payload.sid : null,
          // Tokens minted before sessions had generations carry none: they belong to the first.
          sessionGeneration: typeof payload.gen === "number" ? payload.gen : 0,
        };
        if (typeof payload.exp === "number") {
          // Bounded: the oldest entry goes first (a Map keeps insertion order).
          if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value ?? "");
          verified.set(token, { claims, exp: payload.exp });
        }
        return { ...claims };
      } catch {
        return null;
      }
    },
  };
}
