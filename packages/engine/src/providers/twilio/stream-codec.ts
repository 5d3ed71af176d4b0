import { objectField, stringField, stringRecord } from "../../telephony/form.ts";
import { sharedStreamEvents, streamMessage } from "../../telephony/media-stream-events.ts";
import { MULAW_RATE, MulawStreamAudio } from "../../telephony/mulaw-audio.ts";
import type { StreamCodec, StreamEvent } from "../../telephony/types.ts";

/**
 * Twilio Media Streams messages (https://www.twilio.com/docs/voice/media-streams/websocket-messages):
 * in, `connected`, `start`, `media`, `dtmf`, `mark`, `stop` as JSON text; out, `media`, `mark` and
 * `clear`, each naming the stream by its `streamSid`.
 */
export class TwilioStreamCodec implements StreamCodec {
  readonly lineRate = MULAW_RATE;
  private readonly audio = new MulawStreamAudio();
  private streamSid = "";

  decode(data: string | Buffer, isBinary: boolean): StreamEvent[] {
    const message = streamMessage(data, isBinary);
    if (!message) return [];
    if (message.event !== "start") return sharedStreamEvents(message, this.audio);
    const start = objectField(message, "start");
    this.streamSid = stringField(message, "streamSid") || stringField(start, "streamSid");
    return [
      {
        type: "start",
        providerCallId: stringField(start, "callSid"),
        streamId: this.streamSid,
        parameters: stringRecord(start.customParameters),
      },
    ];
  }

  encodeAudio(pcm: Int16Array): string[] {
    const payloads = this.audio.encode(pcm);
    // Without a stream sid (before `start`) Twilio cannot route the audio; nothing to send yet.
    if (!this.streamSid) return [];
    return payloads.map((payload) => JSON.stringify({ event: "media", streamSid: this.streamSid, media: { payload } }));
  }

  skipAudio(pcm: Int16Array): void {
    this.audio.skip(pcm);
  }

  encodeMark(name: string): string {
    return JSON.stringify({ event: "mark", streamSid: this.streamSid, mark: { name } });
  }

  encodeClear(): string {
    this.audio.dropPending();
    return JSON.stringify({ event: "clear", streamSid: this.streamSid });
  }
}
