import { objectField, stringField, stringRecord } from "../../telephony/form.ts";
import { sharedStreamEvents, streamMessage } from "../../telephony/media-stream-events.ts";
import { MULAW_RATE, MulawStreamAudio } from "../../telephony/mulaw-audio.ts";
import type { StreamCodec, StreamEvent } from "../../telephony/types.ts";

/**
 * Telnyx media streaming frames (https://developers.telnyx.com/api-reference/websockets/stream-call-media-over-websocket):
 * in, `connected`, `start` (start.call_control_id, stream_id, start.custom_parameters), `media`
 * (base64 RTP payload, PCMU here), `dtmf`, `mark`, `error`, `stop`; out, `media`, `mark`, `clear`.
 */
export class TelnyxStreamCodec implements StreamCodec {
  readonly lineRate = MULAW_RATE;
  private readonly audio = new MulawStreamAudio();

  decode(data: string | Buffer, isBinary: boolean): StreamEvent[] {
    const message = streamMessage(data, isBinary);
    if (!message) return [];
    if (message.event !== "start") return sharedStreamEvents(message, this.audio);
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

  encodeAudio(pcm: Int16Array): string[] {
    return this.audio.encode(pcm).map((payload) => JSON.stringify({ event: "media", media: { payload } }));
  }

  skipAudio(pcm: Int16Array): void {
    this.audio.skip(pcm);
  }

  encodeMark(name: string): string {
    return JSON.stringify({ event: "mark", mark: { name } });
  }

  encodeClear(): string {
    this.audio.dropPending();
    return JSON.stringify({ event: "clear" });
  }
}
