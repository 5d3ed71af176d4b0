import type { StreamParameters, TransferRequest } from "../../telephony/types.ts";
import { xmlAttributes, xmlEscape, xmlResponse } from "../../telephony/xml.ts";

/**
 * Plivo XML (https://www.plivo.com/docs/voice/xml/). `extraHeaders` may hold only letters and
 * digits (`k=v,k2=v2`, 512 bytes), so Parley's parameters travel as one `parley` header whose value
 * is their JSON in hex; the stream codec reads it back from the start event's `extra_headers`.
 */
export const PARAMETERS_HEADER = "parley";

export function encodeParameters(parameters: StreamParameters): string {
  if (Object.keys(parameters).length === 0) return "";
  return `${PARAMETERS_HEADER}=${Buffer.from(JSON.stringify(parameters)).toString("hex")}`;
}

/** `<Stream>` bidirectional μ-law 8 kHz that holds the call (keepCallAlive) until the socket closes. */
export function streamAnswer(streamUrl: string, parameters: StreamParameters): string {
  const attributes = xmlAttributes({
    bidirectional: "true",
    keepCallAlive: "true",
    audioTrack: "inbound",
    contentType: "audio/x-mulaw;rate=8000",
    extraHeaders: encodeParameters(parameters) || undefined,
  });
  return xmlResponse(`<Stream${attributes}>${xmlEscape(streamUrl)}</Stream>`);
}

/** Plivo numbers and caller ids are digits with the country code, without `+`; SIP URIs stay. */
export function plivoAddress(address: string): string {
  return address.startsWith("+") ? address.slice(1) : address;
}

/** `<Dial>` to a number or SIP URI (`<User>`), with the leg's progress reported to the status URL. */
export function dialXml(request: TransferRequest): string {
  const sip = /^sips?:/i.test(request.destination);
  const noun = sip ? "User" : "Number";
  const dial = xmlAttributes({
    callerId: plivoAddress(request.callerId),
    action: request.statusUrl,
    method: "POST",
    callbackUrl: request.statusUrl,
    callbackMethod: "POST",
  });
  return xmlResponse(`<Dial${dial}><${noun}>${xmlEscape(plivoAddress(request.destination))}</${noun}></Dial>`);
}
