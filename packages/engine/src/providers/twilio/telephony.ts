import { CALL_PROGRESS_STATUSES } from "../../telephony/call-progress.ts";
import { optionalCredential } from "../../telephony/credentials.ts";
import { type ConferenceControl, type TelephonyAdapter, TelephonyError } from "../../telephony/types.ts";
import { conferenceTwiml, dialTwiml, dtmfTwiml, rejectBusyTwiml, sayAndHangupTwiml, streamAnswer } from "./markup.ts";
import {
  configureNumber,
  fetchCallStatus,
  findCall,
  listNumbers,
  placeCall,
  placeCallWithTwiml,
  updateCall,
} from "./rest.ts";
import { verifyTwilioSignature } from "./signature.ts";
import { TwilioStreamCodec } from "./stream-codec.ts";
import { parseIncomingCall, parseStatus } from "./webhooks.ts";

/** Warm transfers: `<Dial><Conference>` by call update, the human dialled with inline TwiML. */
const twilioConference: ConferenceControl = {
  async holdInConference(account, { providerCallId, conference }) {
    await updateCall(account, providerCallId, { Twiml: conferenceTwiml(conference, "waiting") });
  },
  dialForBriefing: (account, request) =>
    placeCallWithTwiml(account, {
      from: request.from,
      to: request.to,
      twiml: streamAnswer(request.streamUrl, request.parameters),
      statusUrl: request.statusUrl,
      timeoutSeconds: request.timeoutSeconds,
    }),
  async joinConference(account, { providerCallId, conference }) {
    await updateCall(account, providerCallId, { Twiml: conferenceTwiml(conference, "starting") });
  },
  async callStatus(account, providerCallId) {
    const status = CALL_PROGRESS_STATUSES[await fetchCallStatus(account, providerCallId)];
    if (!status) throw new TelephonyError("twilio", "unavailable", "twilio: unknown call status");
    return status;
  },
  async sayAndHangup(account, providerCallId, message) {
    await updateCall(account, providerCallId, { Twiml: sayAndHangupTwiml(message) });
  },
};

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
  rejectBusy: () => ({ contentType: "text/xml", body: rejectBusyTwiml() }),
  createStreamCodec: () => new TwilioStreamCodec(),
  placeCall,
  findCall,
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
  conference: twilioConference,
  features: {
    warmTransfer: true,
    machineDetection: true,
    marks: true,
    clear: true,
    dtmfOut: "call update with TwiML <Play digits>, then the stream reopens",
  },
};
