import { randomUUID } from "node:crypto";
import { ROOM_TOKEN_TTL_SECONDS } from "@parley/contract";
import { jwtVerify, SignJWT } from "jose";
import type { AppContext } from "../../context.ts";

/** Who may join which room: what a room token carries. */
export interface RoomGrant {
  room: string;
  identity: string;
  name: string;
  workspaceId: string;
  /** A widget call's token opens the socket from this page origin only (and no other token from there). */
  origin?: string;
  /** Token id, for the one-use rule. */
  tokenId: string;
  expiresAtMs: number;
}

const AUDIENCE = "parley-room";
type TokenContext = Pick<AppContext, "roomTokenKey" | "now">;

/** A short-lived token that lets one participant join one room once. */
export function signRoomToken(ctx: TokenContext, grant: Omit<RoomGrant, "tokenId" | "expiresAtMs">): Promise<string> {
  const nowSeconds = Math.floor(ctx.now().getTime() / 1000);
  const origin = grant.origin ? { origin: grant.origin } : {};
  return new SignJWT({ room: grant.room, name: grant.name, workspace_id: grant.workspaceId, ...origin })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(grant.identity)
    .setJti(randomUUID())
    .setIssuer("parley")
    .setAudience(AUDIENCE)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + ROOM_TOKEN_TTL_SECONDS)
    .sign(ctx.roomTokenKey);
}

/** The grant of a valid, unexpired token, or null (forged, expired, malformed). */
export async function verifyRoomToken(ctx: TokenContext, token: string): Promise<RoomGrant | null> {
  try {
    const { payload } = await jwtVerify(token, ctx.roomTokenKey, {
      issuer: "parley",
      audience: AUDIENCE,
      algorithms: ["HS256"],
      currentDate: ctx.now(),
    });
    const { room, name, workspace_id: workspaceId, sub, jti, exp } = payload;
    if (typeof room !== "string" || typeof name !== "string" || typeof workspaceId !== "string") return null;
    if (!sub || !jti || !exp) return null;
    const origin = typeof payload.origin === "string" ? { origin: payload.origin } : {};
    return { room, name, workspaceId, identity: sub, tokenId: jti, expiresAtMs: exp * 1000, ...origin };
  } catch {
    return null;
  }
}
