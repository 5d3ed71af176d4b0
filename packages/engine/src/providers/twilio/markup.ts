import type { StreamParameters } from "../../telephony/types.ts";
import { xmlAttributes, xmlEscape, xmlResponse } from "../../telephony/xml.ts";

/** TwiML answers and call updates (https://www.twilio.com/docs/voice/twiml). */

/** `<Connect><Stream>`: a bidirectional Media Stream that holds the call until the socket closes. */
export function connectStream(streamUrl: string, parameters: StreamParameters): string {
  const params = Object.entries(parameters)
    .map(([name, value]) => `<Parameter${xmlAttributes({ name, value })}/>`)
    .join("");
  return `<Connect><Stream${xmlAttributes({ url: streamUrl })}>${params}</Stream></Connect>`;
}

export function streamAnswer(streamUrl: string, parameters: StreamParameters): string {
  return xmlResponse(connectStream(streamUrl, parameters));
}

/**
 * `<Reject reason="busy">` as the first verb: Twilio does not pick up, the caller hears a busy
 * signal and the call ends with status busy, unbilled (https://www.twilio.com/docs/voice/twiml/reject).
 */
export function rejectBusyTwiml(): string {
  return xmlResponse('<Reject reason="busy"/>');
}

/** True for a SIP URI destination (dialled with `<Sip>` instead of `<Number>`). */
export function isSipUri(destination: string): boolean {
  return /^sips?:/i.test(destination);
}

/** `<Dial>` to a number or SIP URI, reporting the new leg's progress to `statusUrl`. */
export function dialTwiml(destination: string, callerId: string, statusUrl: string): string {
  const noun = isSipUri(destination) ? "Sip" : "Number";
  const attributes = xmlAttributes({
    statusCallback: statusUrl,
    statusCallbackEvent: "initiated ringing answered completed",
    statusCallbackMethod: "POST",
  });
  return xmlResponse(
    `<Dial${xmlAttributes({ callerId })}><${noun}${attributes}>${xmlEscape(destination)}</${noun}></Dial>`,
  );
}

/**
 * `<Play digits>` then the stream again: replacing a call's TwiML is Twilio's way to send DTMF on a
 * live call, and it ends the current stream, so the same stream is reopened after the tones.
 * `w` in digits is a half-second pause, as Twilio documents.
 */
export function dtmfTwiml(digits: string, streamUrl: string, parameters: StreamParameters): string {
  return xmlResponse(`<Play${xmlAttributes({ digits })}/>${connectStream(streamUrl, parameters)}`);
}

/**
 * `<Dial><Conference>`: the call joins the named conference. The caller's side waits (Twilio's
 * default hold music plays) until a participant with `startConferenceOnEnter` arrives; whoever has
 * `endConferenceOnExit` ends it for both on leaving, so neither is left alone in an empty room.
 */
export function conferenceTwiml(name: string, role: "waiting" | "starting"): string {
  const attributes = xmlAttributes({
    startConferenceOnEnter: role === "starting" ? "true" : "false",
    endConferenceOnExit: "true",
    beep: "false",
  });
  return xmlResponse(`<Dial><Conference${attributes}>${xmlEscape(name)}</Conference></Dial>`);
}

/** `<Say>` then `<Hangup>`: a last word from the vendor's own voice (Parley's stream is gone). */
export function sayAndHangupTwiml(message: string): string {
  return xmlResponse(`<Say>${xmlEscape(message)}</Say><Hangup/>`);
}
