import type { IncomingCall, StreamParameters, TransferRequest } from "../../telephony/types.ts";

/**
 * NCCOs (https://developer.vonage.com/en/voice/voice-api/ncco-reference). The answer connects the
 * call to Parley's WebSocket as 16 kHz linear PCM; the parameters ride as the endpoint's headers,
 * which Vonage repeats in the first (`websocket:connected`) message, and the call's uuid rides as
 * one more header because that message does not name the call otherwise.
 */
export const CALL_UUID_HEADER = "call_uuid";
export const STREAM_CONTENT_TYPE = "audio/l16;rate=16000";

export function streamNcco(streamUrl: string, statusUrl: string, parameters: StreamParameters, call?: IncomingCall) {
  const headers = call?.providerCallId ? { ...parameters, [CALL_UUID_HEADER]: call.providerCallId } : { ...parameters };
  return [
    {
      action: "connect",
      eventUrl: [statusUrl],
      eventMethod: "POST",
      endpoint: [{ type: "websocket", uri: streamUrl, "content-type": STREAM_CONTENT_TYPE, headers }],
    },
  ];
}

/**
 * NCCOs have no reject: a `talk` action says why and the call ends when the NCCO runs out
 * (https://developer.vonage.com/en/voice/voice-api/ncco-reference#talk).
 */
export function busyNcco(text: string) {
  return [{ action: "talk", text }];
}

/** Vonage numbers are digits with the country code, without `+`. */
export function vonageNumber(address: string): string {
  return address.startsWith("+") ? address.slice(1) : address;
}

/** The NCCO a transfer moves the call to: connect to the number (or SIP URI). */
export function transferNcco(request: TransferRequest) {
  const sip = /^sips?:/i.test(request.destination);
  const endpoint = sip
    ? { type: "sip", uri: request.destination }
    : { type: "phone", number: vonageNumber(request.destination) };
  return [
    {
      action: "connect",
      from: vonageNumber(request.callerId),
      eventUrl: [request.statusUrl],
      eventMethod: "POST",
      endpoint: [endpoint],
    },
  ];
}
