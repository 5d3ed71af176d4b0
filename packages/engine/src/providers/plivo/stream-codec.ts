import { isRecord, objectField, stringField, stringRecord } from "../../telephony/form.ts";
import { streamMessage } from "../../telephony/media-stream-events.ts";
import { MULAW_RATE, MulawStreamAudio } from "../../telephony/mulaw-audio.ts";
import type { StreamCodec, StreamEvent, StreamParameters } from "../../telephony/types.ts";
import { unescapeHeader } from "./markup.ts";

/**
 * Plivo audio stream events (https://www.plivo.com/docs/voice/audio-streaming/audio-streaming): in,
 * `start` (start.callId, start.streamId, extra_headers), `media`, `dtmf`, `playedStream` (a
 * checkpoint played out), `clearedAudio`, `stop`; out, `playAudio`, `checkpoint`, `clearAudio`.
 */

/** `extra_headers` as Plivo sends it: `k=v` pairs split by `,` or `;`, or a JSON object. */
export function readExtraHeaders(value: unknown): StreamParameters {
  if (isRecord(value)) return stringRecord(value);
  if (typeof value !== "string" || !value.trim()) return {};
  if (value.trim().startsWith("{")) {
    try {
      return stringRecord(JSON.parse(value));
    } catch {
      return {};
    }
  }
  const headers: StreamParameters = {};
  for (const pair of value.split(/[,;]/)) {
    const at = pair.indexOf("=");
    if (at > 0) headers[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return headers;
}

/** Parley's parameters out of the extra headers, unescaped (see markup.ts). */
export function streamParameters(extraHeaders: unknown): StreamParameters {
  const parameters: StreamParameters = {};
  for (const [name, value] of Object.entries(readExtraHeaders(extraHeaders))) {
    parameters[unescapeHeader(name)] = unescapeHeader(value);
  }
  return parameters;
}

export class PlivoStreamCodec implements StreamCodec {
  readonly lineRate = MULAW_RATE;
  private readonly audio = new MulawStreamAudio();
  private streamId = "";

  decode(data: string | Buffer, isBinary: boolean): StreamEvent[] {
    const message = streamMessage(data, isBinary);
    if (!message) return [];
    switch (message.event) {
      case "start": {
        const start = objectField(message, "start");
        this.streamId = stringField(start, "streamId") || stringField(message, "streamId");
        return [
          {
            type: "start",
            providerCallId: stringField(start, "callId"),
            streamId: this.streamId,
            parameters: streamParameters(message.extra_headers),
          },
        ];
      }
      case "media": {
        const media = objectField(message, "media");
        const track = stringField(media, "track");
        if (track && track !== "inbound") return [];
        const payload = stringField(media, "payload");
        return payload ? [{ type: "audio", pcm: this.audio.decode(payload) }] : [];
      }
      case "dtmf": {
        const dtmf = message.dtmf;
        const digit = isRecord(dtmf) ? stringField(dtmf, "digit") : typeof dtmf === "string" ? dtmf : "";
        return digit ? [{ type: "dtmf", digit }] : [];
      }
      case "playedStream":
        return [{ type: "mark", name: stringField(message, "name") }];
      case "stop":
        return [{ type: "stop" }];
      default:
        return [];
    }
  }

  encodeAudio(pcm: Int16Array): string[] {
    return this.audio
      .encode(pcm)
      .map((payload) =>
        JSON.stringify({ event: "playAudio", media: { contentType: "audio/x-mulaw", sampleRate: 8000, payload } }),
      );
  }

  skipAudio(pcm: Int16Array): void {
    this.audio.skip(pcm);
  }

  encodeMark(name: string): string {
    return JSON.stringify({ event: "checkpoint", streamId: this.streamId, name });
  }

  encodeClear(): string {
    this.audio.dropPending();
    return JSON.stringify({ event: "clearAudio", streamId: this.streamId });
  }
}
