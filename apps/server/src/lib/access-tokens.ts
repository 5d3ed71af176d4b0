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
}

/** What a verified token says: its spec claims and when it was issued (seconds since the epoch). */
export type VerifiedClaims = AccessClaims & { issuedAt: number };

export interface AccessTokens {
  sign(claims: AccessClaims): Promise<string>;
  /** A token for the user, acting in the given workspace (or none). */
  forUser(user: TokenSubject, workspaceId: string | null): Promise<string>;
  /** Returns the claims, or null for a token that is expired, forged or malformed. */
  verify(token: string): Promise<VerifiedClaims | null>;
}

export function createAccessTokens(key: Buffer, ttlSeconds: number): AccessTokens {
  const sign = (claims: AccessClaims) =>
    new SignJWT({ ...claims })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(claims.id)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .setIssuer("parley")
      .sign(key);
  return {
    sign,
    forUser: (user, workspaceId) =>
      sign({
        id: user.id,
        username: user.username,
        is_superuser: user.isSuperuser,
        tier_id: user.tierId,
        workspace_id: workspaceId,
      }),
    async verify(token) {
      try {
        // A token without an expiry would be valid forever: refuse it even when the signature holds.
        const { payload } = await jwtVerify(token, key, {
          issuer: "parley",
          algorithms: ["HS256"],
          requiredClaims: ["exp", "iat"],
        });
        if (typeof payload.id !== "string" || typeof payload.username !== "string") return null;
        if (typeof payload.iat !== "number") return null;
        return {
          id: payload.id,
          username: payload.username,
          is_superuser: payload.is_superuser === true,
          tier_id: typeof payload.tier_id === "string" ? payload.tier_id : null,
          workspace_id: typeof payload.workspace_id === "string" ? payload.workspace_id : null,
          issuedAt: payload.iat,
        };
      } catch {
        return null;
      }
    },
  };
}
