import { optionalCredential } from "../../telephony/credentials.ts";
import { type TelephonyAdapter, TelephonyError } from "../../telephony/types.ts";
import { rejectBusy, streamAnswer } from "./markup.ts";
import { callAction, configureNumber, listNumbers, placeCall } from "./rest.ts";
import { verifyTelnyxSignature } from "./signature.ts";
import { TelnyxStreamCodec } from "./stream-codec.ts";
import { parseIncomingCall, parseStatus } from "./webhooks.ts";

/** Telnyx: TeXML answers and calls, bidirectional RTP media streaming, Call Control for live calls. */
export const telnyxTelephony: TelephonyAdapter = {
  listNumbers,
  configureNumber,
  verifyWebhook(account, request) {
    const publicKey = optionalCredential(account, "public_key");
    return publicKey ? verifyTelnyxSignature(publicKey, request) : false;
  },
  parseIncomingCall,
  parseStatus,
  answerWithStream: (urls, parameters) => ({ contentType: "text/xml", body: streamAnswer(urls.streamUrl, parameters) }),
  rejectBusy: () => ({ contentType: "text/xml", body: rejectBusy() }),
  createStreamCodec: () => new TelnyxStreamCodec(),
  placeCall,
  async transfer(account, request) {
    await callAction(account, request.providerCallId, "transfer", {
      to: request.destination,
      from: request.callerId,
      webhook_url: request.statusUrl,
      webhook_url_method: "POST",
    });
  },
  async sendDtmf(account, providerCallId, digits) {
    // Telnyx plays w/W as pauses of half a second and a second.
    if (!/^[0-9A-D*#wW]+$/.test(digits))
      throw new TelephonyError("telnyx", "rejected", `telnyx: invalid DTMF digits "${digits}"`);
    await callAction(account, providerCallId, "send_dtmf", { digits, duration_millis: 250 });
  },
  async hangup(account, providerCallId) {
    await callAction(account, providerCallId, "hangup", {});
  },
  features: {
    warmTransfer: false,
    machineDetection: true,
    marks: true,
    clear: true,
    dtmfOut: "Call Control send_dtmf (the stream carries on)",
  },
};
