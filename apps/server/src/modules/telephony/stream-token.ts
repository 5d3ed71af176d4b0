import { jwtVerify, SignJWT } from "jose";
import type { AppContext } from "../../context.ts";

/**
 * What the voice webhook's answer hands to the media stream: the stream WebSocket carries no user,
 * so the markup's stream parameters carry this short-lived signed grant (the room-token style:
 * HS256, 60 s, one use) naming the call it may join. It is kept small on purpose: vendors cap the
 * size of stream parameters (one caps all of them at 500 characters); the rest is in the call log.
 */
export interface StreamGrant {
  callId: string;
  workspaceId: string;
  phoneNumberId: string;
  /**
   * Set on a grant that reopens the stream of a call already running (a vendor that plays DTMF by
   * replacing the call's markup ends the stream; the new markup reconnects with this grant).
   */
  resume?: string | undefined;
}

const AUDIENCE = "tel";
const TTL_SECONDS = 60;
type TokenContext = Pick<AppContext, "roomTokenKey" | "now">;

export function signStreamToken(ctx: TokenContext, grant: StreamGrant): Promise<string> {
  const nowSeconds = Math.floor(ctx.now().getTime() / 1000);
  return new SignJWT({ ws: grant.workspaceId, pn: grant.phoneNumberId, ...(grant.resume ? { r: grant.resume } : {}) })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(grant.callId)
    .setIssuer("parley")
    .setAudience(AUDIENCE)
    .setExpirationTime(nowSeconds + TTL_SECONDS)
    .sign(ctx.roomTokenKey);
}

/** The grant and when its token expires (for the one-use claim), or null when forged, expired or malformed. */
export async function verifyStreamToken(
  ctx: TokenContext,
  token: string,
): Promise<{ grant: StreamGrant; expiresAt: Date } | null> {
  try {
    const { payload } = await jwtVerify(token, ctx.roomTokenKey, {
      issuer: "parley",
      audience: AUDIENCE,
      algorithms: ["HS256"],
      currentDate: ctx.now(),
    });
    const { sub, ws, pn, r, exp } = payload;
    if (typeof sub !== "string" || typeof ws !== "string" || typeof pn !== "string" || !exp) return null;
    const resume = typeof r === "string" ? r : undefined;
    return { grant: { callId: sub, workspaceId: ws, phoneNumberId: pn, resume }, expiresAt: new Date(exp * 1000) };
  } catch {
    return null;
  }
}
