import type { StreamParameters } from "../../telephony/types.ts";
import { xmlAttributes, xmlResponse } from "../../telephony/xml.ts";

/**
 * TeXML `<Connect><Stream>` (https://developers.telnyx.com/docs/voice/programmable-voice/texml-verbs/stream):
 * bidirectional in RTP mode with PCMU at 8 kHz, so the stream carries raw μ-law both ways; the
 * `<Parameter>`s come back in the start frame's `custom_parameters`.
 */
export function streamAnswer(streamUrl: string, parameters: StreamParameters): string {
  const params = Object.entries(parameters)
    .map(([name, value]) => `<Parameter${xmlAttributes({ name, value })}/>`)
    .join("");
  const attributes = xmlAttributes({
    url: streamUrl,
    track: "inbound_track",
    bidirectionalMode: "rtp",
    bidirectionalCodec: "PCMU",
    bidirectionalSamplingRate: "8000",
  });
  return xmlResponse(`<Connect><Stream${attributes}>${params}</Stream></Connect>`);
}

/**
 * TeXML `<Reject reason="busy">` as the first verb: the call is not answered and costs nothing
 * (https://developers.telnyx.com/docs/voice/programmable-voice/texml-verbs/reject).
 */
export function rejectBusy(): string {
  return xmlResponse('<Reject reason="busy"/>');
}
