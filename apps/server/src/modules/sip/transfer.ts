import { agreementFrom, type CallLeg, createOffer, parseSdp, RtpSession } from "@parley/sip";
import type { SipRoute } from "./routing.ts";
import type { TransferOutcome } from "./rtp-call-transport.ts";
import type { SipRuntime } from "./sip-runtime.ts";

/**
 * Moves a SIP call to `route`: first by REFER (the peer calls the destination itself, RFC 3515);
 * when the peer refuses, Parley calls the destination and relays RTP between the two legs until
 * either hangs up. `onBridgeEnd` runs when a bridged call is over.
 */
export async function transferLeg(
  runtime: SipRuntime,
  leg: CallLeg,
  rtp: RtpSession,
  route: SipRoute,
  onBridgeEnd: () => void,
): Promise<TransferOutcome> {
  const outcome = await leg.refer(route.uri);
  if (outcome === "transferred") {
    // RFC 5589 §6.1: the transferor leaves once the transfer has succeeded.
    if (leg.state !== "ended") await leg.hangup();
    return "referred";
  }
  const other = await RtpSession.open(runtime.rtp);
  const result = await runtime.ua
    .dial({
      target: route.uri,
      peer: route.peer,
      from: route.from,
      assertedIdentity: route.assertedIdentity,
      credentials: route.credentials,
      sdp: createOffer({ address: runtime.mediaAddress, port: other.port }),
    })
    .catch((error: unknown) => {
      other.close();
      throw error;
    });
  const agreement = result.status < 300 ? agreementFrom(parseSdp(result.call.remoteSdp)) : null;
  if (!agreement) {
    other.close();
    if (result.status < 300) await result.call.hangup();
    throw new Error(`the destination did not answer (${result.status} ${result.reason})`);
  }
  other.configure(agreement);
  rtp.removeAllListeners("audio");
  rtp.removeAllListeners("dtmf");
  rtp.clearAudio();
  rtp.on("audio", (pcm) => other.sendAudio(pcm));
  other.on("audio", (pcm) => rtp.sendAudio(pcm));
  rtp.on("dtmf", (digit) => other.sendDtmf(digit));
  other.on("dtmf", (digit) => rtp.sendDtmf(digit));
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    void leg.hangup();
    void result.call.hangup();
    rtp.close();
    other.close();
    onBridgeEnd();
  };
  leg.once("ended", end);
  result.call.once("ended", end);
  if (leg.state === "ended") end();
  return "bridged";
}
