import { optionalCredential } from "../../telephony/credentials.ts";
import { type TelephonyAdapter, TelephonyError } from "../../telephony/types.ts";
import { dialXml, rejectBusyXml, streamAnswer } from "./markup.ts";
import { callRequest, configureNumber, listNumbers, placeCall } from "./rest.ts";
import { verifyPlivoSignature } from "./signature.ts";
import { PlivoStreamCodec } from "./stream-codec.ts";
import { parseIncomingCall, parseStatus } from "./webhooks.ts";

/** Plivo: `<Stream>` XML answers, bidirectional audio streams, the Call API for live calls. */
export const plivoTelephony: TelephonyAdapter = {
  listNumbers,
  configureNumber,
  verifyWebhook(account, request) {
    const token = optionalCredential(account, "auth_token");
    return token ? verifyPlivoSignature(token, request) : false;
  },
  parseIncomingCall,
  parseStatus,
  answerWithStream: (urls, parameters) => ({
    contentType: "application/xml",
    body: streamAnswer(urls.streamUrl, parameters),
  }),
  rejectBusy: () => ({ contentType: "application/xml", body: rejectBusyXml() }),
  createStreamCodec: () => new PlivoStreamCodec(),
  placeCall,
  transferMarkup: (request) => ({ contentType: "application/xml", body: dialXml(request) }),
  async transfer(account, request) {
    // Plivo's transfer fetches new XML from a URL; the server serves transferMarkup() there.
    if (!request.markupUrl) {
      throw new TelephonyError("plivo", "rejected", "plivo: a transfer needs the URL that serves its <Dial> XML");
    }
    await callRequest(account, request.providerCallId, {
      json: { legs: "aleg", aleg_url: request.markupUrl, aleg_method: "POST" },
    });
  },
  async sendDtmf(account, providerCallId, digits) {
    if (!/^[0-9*#wW]+$/.test(digits))
      throw new TelephonyError("plivo", "rejected", `plivo: invalid DTMF digits "${digits}"`);
    await callRequest(account, providerCallId, { sub: "DTMF/", json: { digits, leg: "aleg" } });
  },
  async hangup(account, providerCallId) {
    await callRequest(account, providerCallId, { method: "DELETE" });
  },
  features: {
    warmTransfer: false,
    machineDetection: true,
    marks: true,
    clear: true,
    dtmfOut: "Call API POST …/Call/{uuid}/DTMF/ (the stream carries on)",
  },
};
