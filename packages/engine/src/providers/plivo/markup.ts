import type { StreamParameters, TransferRequest } from "../../telephony/types.ts";
import { xmlAttributes, xmlEscape, xmlResponse } from "../../telephony/xml.ts";

/**
 * Plivo XML (https://www.plivo.com/docs/voice/xml/). `extraHeaders` takes `k=v,k2=v2` of letters
 * and digits only, 512 bytes in all, and comes back in the start event's `extra_headers`; so each
 * parameter name and value is escaped into letters and digits: `Z` and every other character
 * become `Z` and the two hex digits of each UTF-8 byte (`call_id` → `callZ5Fid`). Compact enough for
 * a stream token (hex of the whole would double it past the limit).
 */
export const EXTRA_HEADERS_LIMIT = 512;

export function escapeHeader(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    out += /[A-Ya-z0-9]/.test(char) ? char : `Z${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

export function unescapeHeader(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === "Z" && /^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i] ?? "", "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

export function encodeParameters(parameters: StreamParameters): string {
  return Object.entries(parameters)
    .map(([name, value]) => `${escapeHeader(name)}=${escapeHeader(value)}`)
    .join(",");
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

/**
 * `<Hangup reason="busy">` as the first element: Plivo hangs the call up unanswered with status
 * busy (https://www.plivo.com/docs/voice/xml/hangup).
 */
export function rejectBusyXml(): string {
  return xmlResponse('<Hangup reason="busy"/>');
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
