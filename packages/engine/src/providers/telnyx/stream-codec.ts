import { isRecord, objectField, stringField, stringRecord } from "../../telephony/form.ts";
import { MulawStreamAudio } from "../../telephony/mulaw-audio.ts";
import type { StreamCodec, StreamEvent } from "../../telephony/types.ts";

/**
 * Telnyx media streaming frames (https://developers.telnyx.com/api-reference/websockets/stream-call-media-over-websocket):
 * in, `connected`, `start` (start.call_control_id, stream_id, start.custom_parameters), `media`
 * (base64 RTP payload, PCMU here), `dtmf`, `mark`, `error`, `stop`; out, `media`, `mark`, `clear`.
 */
export class TelnyxStreamCodec implements StreamCodec {
  private readonly audio = new MulawStreamAudio();

  decode(data: string | Buffer, isBinary: boolean): StreamEvent[] {
    if (isBinary) return [];
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      return [];
    }
    if (!isRecord(message)) return [];
    switch (message.event) {
      case "connected":
        return [{ type: "connected" }];
      case "start": {
        const start = objectField(message, "start");
        return [
          {
            type: "start",
            providerCallId: stringField(start, "call_control_id"),
            streamId: stringField(message, "stream_id"),
            parameters: stringRecord(start.custom_parameters),
          },
        ];
      }
      case "media": {
        const media = objectField(message, "media");
        // Only the caller's side: an `outbound` track would be Parley's own voice coming back.
        const track = stringField(media, "track");
        if (track && track !== "inbound") return [];
        const payload = stringField(media, "payload");
        return payload ? [{ type: "audio", pcm: this.audio.decode(payload) }] : [];
      }
      case "dtmf": {
        const digit = stringField(objectField(message, "dtmf"), "digit");
        return digit ? [{ type: "dtmf", digit }] : [];
      }
      case "mark":
        return [{ type: "mark", name: stringField(objectField(message, "mark"), "name") }];
      case "stop":
        return [{ type: "stop" }];
      default:
        return [];
    }
  }

  encodeAudio(pcm: Int16Array): string[] {
    return this.audio.encode(pcm).map((payload) => JSON.stringify({ event: "media", media: { payload } }));
  }

  encodeMark(name: string): string {
    return JSON.stringify({ event: "mark", mark: { name } });
  }

  encodeClear(): string {
    this.audio.dropPending();
    return JSON.stringify({ event: "clear" });
  }
}
