import { optionalCredential } from "../../telephony/credentials.ts";
import { type TelephonyAdapter, TelephonyError } from "../../telephony/types.ts";
import { busyNcco, streamNcco, transferNcco } from "./markup.ts";
import { configureNumber, listNumbers, modifyCall, placeCall } from "./rest.ts";
import { signedWebhookNonce, verifySignedWebhook } from "./signed-webhook.ts";
import { VonageStreamCodec } from "./stream-codec.ts";
import { parseIncomingCall, parseStatus } from "./webhooks.ts";

/** Vonage Voice API: NCCO answers, a WebSocket of linear PCM, the Calls API for live calls. */
export const vonageTelephony: TelephonyAdapter = {
  listNumbers,
  configureNumber,
  verifyWebhook(account, request) {
    const secret = optionalCredential(account, "signature_secret");
    return secret ? verifySignedWebhook(request, secret) : false;
  },
  webhookNonce: signedWebhookNonce,
  parseIncomingCall,
  parseStatus,
  answerWithStream: (urls, parameters, call) => ({
    contentType: "application/json",
    body: JSON.stringify(streamNcco(urls.streamUrl, urls.statusUrl, parameters, call)),
  }),
  rejectBusy: (text) => ({ contentType: "application/json", body: JSON.stringify(busyNcco(text)) }),
  createStreamCodec: () => new VonageStreamCodec(),
  placeCall,
  async transfer(account, request) {
    await modifyCall(account, request.providerCallId, {
      action: "transfer",
      destination: { type: "ncco", ncco: transferNcco(request) },
    });
  },
  async sendDtmf(account, providerCallId, digits) {
    if (!/^[0-9*#p]+$/.test(digits))
      throw new TelephonyError("vonage", "rejected", `vonage: invalid DTMF digits "${digits}"`);
    await modifyCall(account, providerCallId, { digits }, "/dtmf");
  },
  async hangup(account, providerCallId) {
    await modifyCall(account, providerCallId, { action: "hangup" });
  },
  features: {
    warmTransfer: false,
    machineDetection: true,
    marks: true,
    clear: true,
    dtmfOut: "Calls API PUT /v1/calls/{uuid}/dtmf (the stream carries on)",
  },
};
