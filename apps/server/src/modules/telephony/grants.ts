import type { TransferRequest } from "@parley/engine";
import { z } from "zod";
import type { CallRuntime } from "../calls/runtime.ts";

/**
 * What the voice webhook's answer hands to the media stream: the stream WebSocket carries no user,
 * so the markup's stream parameters carry this short-lived grant (audience "stream", 60 s, one use)
 * naming the call it may join. It is kept small on purpose: vendors cap the size of stream
 * parameters (one caps all of them at 500 characters); the rest is in the call log.
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

const StreamClaims = z.object({
  sub: z.string(),
  ws: z.string(),
  pn: z.string(),
  r: z.string().optional(),
  exp: z.number(),
});

export function signStreamGrant(calls: CallRuntime, grant: StreamGrant): Promise<string> {
  return calls.signGrant("stream", {
    ws: grant.workspaceId,
    pn: grant.phoneNumberId,
    r: grant.resume,
    sub: grant.callId,
  });
}

/** The grant and when its token expires (for the one-use claim), or null when forged, expired or malformed. */
export async function verifyStreamGrant(
  calls: CallRuntime,
  token: string,
): Promise<{ grant: StreamGrant; expiresAt: Date } | null> {
  const claims = await calls.verifyGrant("stream", StreamClaims, token);
  if (!claims) return null;
  const grant = { callId: claims.sub, workspaceId: claims.ws, phoneNumberId: claims.pn, resume: claims.r };
  return { grant, expiresAt: new Date(claims.exp * 1000) };
}

/**
 * Some vendors take a live call's new markup only by URL: the transfer then points them at
 * /api/v1/telephony/{provider}/transfer?t=…, where `t` is this grant (audience "transfer", 5 min):
 * a capability — whoever holds the URL gets the dialling markup, nothing else.
 */
const TransferClaims = z.object({ c: z.string(), d: z.string(), i: z.string(), s: z.string() });

export function signTransferGrant(calls: CallRuntime, request: TransferRequest): Promise<string> {
  const { providerCallId: c, destination: d, callerId: i, statusUrl: s } = request;
  return calls.signGrant("transfer", { c, d, i, s });
}

export async function verifyTransferGrant(calls: CallRuntime, token: string): Promise<TransferRequest | null> {
  const claims = await calls.verifyGrant("transfer", TransferClaims, token);
  return claims && { providerCallId: claims.c, destination: claims.d, callerId: claims.i, statusUrl: claims.s };
}
