import { Reframer } from "../../audio/reframer.ts";
import { Resampler } from "../../audio/resample.ts";
import { objectField, stringField, stringRecord } from "../../telephony/form.ts";
import { streamMessage } from "../../telephony/media-stream-events.ts";
import type { StreamCodec, StreamEvent } from "../../telephony/types.ts";
import { CALL_UUID_HEADER } from "./markup.ts";

/** Parley's side of the stream. */
const PCM_RATE = 16_000;

/**
 * Vonage's WebSocket (https://developer.vonage.com/en/voice/voice-api/concepts/websockets): a first
 * text message `websocket:connected` with the content type and the NCCO's headers, then binary
 * 16-bit little-endian linear PCM both ways in 20 ms messages (640 bytes at 16 kHz), text
 * `websocket:dtmf` for keys. Out, `{"action":"clear"}` drops audio Vonage has queued and
 * `{"action":"notify","payload":…}` asks for `websocket:notify` once playout reaches it.
 * The stream has no stop message: the socket closing ends it.
 */
export class VonageStreamCodec implements StreamCodec {
  private rate = PCM_RATE;

  /** Vonage carries linear PCM at the rate the stream was opened with (16 kHz unless it says 8). */
  get lineRate(): number {
    return this.rate;
  }
  private up: Resampler | null = null;
  private down: Resampler | null = null;
  private framer = new Reframer(PCM_RATE / 50);

  decode(data: string | Buffer, isBinary: boolean): StreamEvent[] {
    if (isBinary) {
      const bytes = typeof data === "string" ? Buffer.from(data) : data;
      // Copy into an aligned array: a Buffer view may start at an odd offset of its pool.
      const pcm = new Int16Array(bytes.length >> 1);
      for (let i = 0; i < pcm.length; i++) pcm[i] = bytes.readInt16LE(i * 2);
      return [{ type: "audio", pcm: this.up ? this.up.process(pcm) : pcm }];
    }
    const message = streamMessage(data, false);
    if (!message) return [];
    switch (message.event) {
      case "websocket:connected":
        return this.connected(message);
      case "websocket:dtmf": {
        const digit = stringField(message, "digit") || stringField(objectField(message, "dtmf"), "digit");
        return digit ? [{ type: "dtmf", digit }] : [];
      }
      case "websocket:notify":
        return [{ type: "mark", name: stringField(objectField(message, "payload"), "name") }];
      default:
        return [];
    }
  }

  /** Reads the rate Vonage chose (16 kHz as the NCCO asks; 8 kHz is converted) and the headers. */
  private connected(message: Record<string, unknown>): StreamEvent[] {
    const rate = Number(/rate=(\d+)/.exec(stringField(message, "content-type"))?.[1] ?? PCM_RATE);
    if (rate !== PCM_RATE && Number.isInteger(rate) && rate > 0) {
      this.rate = rate;
      this.up = new Resampler(rate, PCM_RATE);
      this.down = new Resampler(PCM_RATE, rate);
      this.framer = new Reframer(rate / 50);
    }
    const { event: _event, "content-type": _type, [CALL_UUID_HEADER]: callUuid, ...parameters } = stringRecord(message);
    return [
      { type: "connected" },
      { type: "start", providerCallId: callUuid ?? stringField(message, "uuid"), streamId: "", parameters },
    ];
  }

  encodeAudio(pcm: Int16Array): Buffer[] {
    const frames: Buffer[] = [];
    const samples = this.down ? this.down.process(pcm) : pcm;
    this.framer.push(samples, (frame) => {
      const bytes = Buffer.alloc(frame.length * 2);
      for (let i = 0; i < frame.length; i++) bytes.writeInt16LE(frame[i] as number, i * 2);
      frames.push(bytes);
    });
    return frames;
  }

  skipAudio(pcm: Int16Array): void {
    this.framer.push(this.down ? this.down.process(pcm) : pcm, () => {});
  }

  /**
   * Vonage's `notify` action: it sends the payload back as `websocket:notify` once the audio sent
   * before it has played (a clear drops the notifications queued behind the dropped audio).
   */
  encodeMark(name: string): string {
    return JSON.stringify({ action: "notify", payload: { name } });
  }

  encodeClear(): string {
    this.framer = new Reframer(this.rate / 50);
    if (this.down) this.down = new Resampler(PCM_RATE, this.rate);
    return JSON.stringify({ action: "clear" });
  }
}
