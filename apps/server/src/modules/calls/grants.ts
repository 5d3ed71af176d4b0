import { randomUUID } from "node:crypto";
import { ROOM_TOKEN_TTL_SECONDS } from "@parley/contract";
import { jwtVerify, SignJWT } from "jose";
import type { z } from "zod";
import type { GrantAudience, GrantClaims } from "../../lib/call-runtime.ts";

/**
 * Every token a call hands out is one of these grants: HS256 with the runtime's key, issuer
 * "parley", an audience per use and a short life. Each audience keeps the exact shape its
 * readers have always seen: a room token (the browser's) carries its issue time and a token id for
 * the one-use rule; stream and transfer grants stay small, since vendors cap the size of stream
 * parameters (one caps all of them at 500 characters).
 */
const AUDIENCES: Record<GrantAudience, { aud: string; ttlSeconds: number; oneUse: boolean }> = {
  room: { aud: "parley-room", ttlSeconds: ROOM_TOKEN_TTL_SECONDS, oneUse: true },
  stream: { aud: "tel", ttlSeconds: 60, oneUse: false },
  transfer: { aud: "tel-transfer", ttlSeconds: 300, oneUse: false },
};

const ISSUER = "parley";

export interface GrantSigner {
  signGrant(audience: GrantAudience, claims: GrantClaims): Promise<string>;
  verifyGrant<T>(audience: GrantAudience, schema: z.ZodType<T>, token: string): Promise<T | null>;
}

export function createGrantSigner(key: Uint8Array, now: () => Date): GrantSigner {
  return {
    signGrant(audience, claims) {
      const { aud, ttlSeconds, oneUse } = AUDIENCES[audience];
      const nowSeconds = Math.floor(now().getTime() / 1000);
      const { sub, ...rest } = claims;
      const payload = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
      const jwt = new SignJWT(payload).setProtectedHeader(oneUse ? { alg: "HS256", typ: "JWT" } : { alg: "HS256" });
      if (sub !== undefined) jwt.setSubject(sub);
      if (oneUse) jwt.setJti(randomUUID());
      jwt.setIssuer(ISSUER).setAudience(aud);
      if (oneUse) jwt.setIssuedAt(nowSeconds);
      return jwt.setExpirationTime(nowSeconds + ttlSeconds).sign(key);
    },
    async verifyGrant(audience, schema, token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCES[audience].aud,
          algorithms: ["HS256"],
          currentDate: now(),
        });
        const parsed = schema.safeParse(payload);
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}
