import type { TransferRequest } from "@parley/engine";
import { jwtVerify, SignJWT } from "jose";
import type { AppContext } from "../../context.ts";

/**
 * Some vendors take a live call's new markup only by URL: the transfer then points them at
 * /api/v1/telephony/{provider}/transfer?t=…, where `t` is this signed, short-lived description of
 * the transfer (a capability: whoever holds the URL gets the dialling markup, nothing else).
 */
const AUDIENCE = "tel-transfer";
const TTL_SECONDS = 300;
type TokenContext = Pick<AppContext, "roomTokenKey" | "now">;

export function signTransfer(ctx: TokenContext, request: TransferRequest): Promise<string> {
  const nowSeconds = Math.floor(ctx.now().getTime() / 1000);
  return new SignJWT({ c: request.providerCallId, d: request.destination, i: request.callerId, s: request.statusUrl })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer("parley")
    .setAudience(AUDIENCE)
    .setExpirationTime(nowSeconds + TTL_SECONDS)
    .sign(ctx.roomTokenKey);
}

export async function verifyTransfer(ctx: TokenContext, token: string): Promise<TransferRequest | null> {
  try {
    const { payload } = await jwtVerify(token, ctx.roomTokenKey, {
      issuer: "parley",
      audience: AUDIENCE,
      algorithms: ["HS256"],
      currentDate: ctx.now(),
    });
    const { c, d, i, s } = payload;
    if (typeof c !== "string" || typeof d !== "string" || typeof i !== "string" || typeof s !== "string") return null;
    return { providerCallId: c, destination: d, callerId: i, statusUrl: s };
  } catch {
    return null;
  }
}
