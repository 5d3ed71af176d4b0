import { jwtVerify, SignJWT } from "jose";

/** The claims spec §3 says the web app reads from an access token. */
export interface AccessClaims {
  id: string;
  username: string;
  is_superuser: boolean;
  tier_id: string | null;
  workspace_id: string | null;
}

export interface AccessTokens {
  sign(claims: AccessClaims): Promise<string>;
  /** Returns the claims, or null for a token that is expired, forged or malformed. */
  verify(token: string): Promise<AccessClaims | null>;
}

export function createAccessTokens(key: Buffer, ttlSeconds: number): AccessTokens {
  return {
    sign: (claims) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(claims.id)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .setIssuer("parley")
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: "parley", algorithms: ["HS256"] });
        if (typeof payload.id !== "string" || typeof payload.username !== "string") return null;
        return {
          id: payload.id,
          username: payload.username,
          is_superuser: payload.is_superuser === true,
          tier_id: typeof payload.tier_id === "string" ? payload.tier_id : null,
          workspace_id: typeof payload.workspace_id === "string" ? payload.workspace_id : null,
        };
      } catch {
        return null;
      }
    },
  };
}
