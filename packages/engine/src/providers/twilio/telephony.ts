import { optionalCredential } from "../../telephony/credentials.ts";
import { type TelephonyAdapter, TelephonyError } from "../../telephony/types.ts";
import { dialTwiml, dtmfTwiml, streamAnswer } from "./markup.ts";
import { configureNumber, listNumbers, placeCall, updateCall } from "./rest.ts";
import { verifyTwilioSignature } from "./signature.ts";
import { TwilioStreamCodec } from "./stream-codec.ts";
import { parseIncomingCall, parseStatus } from "./webhooks.ts";

/** Twilio Programmable Voice: TwiML `<Connect><Stream>` and bidirectional Media Streams. */
export const twilioTelephony: TelephonyAdapter = {
  listNumbers,
  configureNumber,
  verifyWebhook(account, request) {
    const token = optionalCredential(account, "auth_token");
    return token ? verifyTwilioSignature(token, request) : false;
  },
  parseIncomingCall,
  parseStatus,
  answerWithStream: (urls, parameters) => ({ contentType: "text/xml", body: streamAnswer(urls.streamUrl, parameters) }),
  createStreamCodec: () => new TwilioStreamCodec(),
  placeCall,
  async transfer(account, request) {
    await updateCall(account, request.providerCallId, {
      Twiml: dialTwiml(request.destination, request.callerId, request.statusUrl),
    });
  },
  async sendDtmf(account, providerCallId, digits, resume) {
    if (!/^[0-9*#wW]+$/.test(digits))
      throw new TelephonyError("twilio", "rejected", `twilio: invalid DTMF digits "${digits}"`);
    // Without the stream to reopen, new TwiML would end the conversation after the tones.
    if (!resume)
      throw new TelephonyError("twilio", "rejected", "twilio: sending DTMF needs the call's stream to resume");
    await updateCall(account, providerCallId, {
      Twiml: dtmfTwiml(digits, resume.urls.streamUrl, resume.parameters),
    });
  },
  async hangup(account, providerCallId) {
    await updateCall(account, providerCallId, { Status: "completed" });
  },
  features: {
    warmTransfer: false,
    machineDetection: true,
    marks: true,
    clear: true,
    dtmfOut: "call update with TwiML <Play digits>, then the stream reopens",
  },
};
