import { mulawDecodeInto, mulawEncode } from "../audio/mulaw.ts";
import { Reframer } from "../audio/reframer.ts";
import { Resampler } from "../audio/resample.ts";

/** Parley's side of a call: 16 kHz PCM. */
export const PCM_RATE = 16_000;
/** The telephone network's side: 8 kHz G.711 μ-law. */
export const MULAW_RATE = 8_000;
/** One 20 ms frame of 8 kHz μ-law is 160 bytes (the size vendors send and expect). */
export const MULAW_FRAME_BYTES = (MULAW_RATE * 20) / 1000;

/**
 * One call's audio conversion between a vendor's base64 8 kHz μ-law payloads and Parley's 16 kHz
 * PCM. Both directions keep resampler state across messages so frame edges do not click; the
 * outgoing side is cut into 20 ms frames, holding back a partial frame until more audio arrives
 * (so marks are accurate to one frame).
 */
export class MulawStreamAudio {
  private readonly up = new Resampler(MULAW_RATE, PCM_RATE);
  private down = new Resampler(PCM_RATE, MULAW_RATE);
  private framer = new Reframer(MULAW_FRAME_BYTES);
  /** Assistant audio taken since the start (or the last barge-in), 16 kHz samples. */
  private taken = 0;
  /** The resampler's first output has been padded to where it would stand without its lookahead. */
  private primed = false;
  /**
   * A payload's bytes and samples, reused message after message: 50 of them a second each way on
   * every call, and the resampler copies what it is given. Grown for a longer payload.
   */
  private bytes = Buffer.alloc(MULAW_FRAME_BYTES);
  private samples = new Int16Array(MULAW_FRAME_BYTES);

  /** A vendor payload (base64 μ-law at 8 kHz) as 16 kHz PCM. */
  decode(payload: string): Int16Array {
    const most = Math.ceil((payload.length * 3) / 4);
    if (most > this.bytes.length) {
      this.bytes = Buffer.alloc(most);
      this.samples = new Int16Array(most);
    }
    const length = this.bytes.write(payload, "base64");
    const samples = this.samples.subarray(0, length);
    mulawDecodeInto(this.bytes.subarray(0, length), samples);
    return this.up.process(samples);
  }

  /** Assistant audio (16 kHz PCM) as base64 payloads of 20 ms each. */
  encode(pcm: Int16Array): string[] {
    const payloads: string[] = [];
    this.frames(pcm, (frame) => {
      const bytes = mulawEncode(frame);
      // A view of the encoded bytes, not a copy of them.
      payloads.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64"));
    });
    return payloads;
  }

  /** Assistant audio that is not sent: the state moves on as `encode` would move it. */
  skip(pcm: Int16Array): void {
    this.frames(pcm, () => {});
  }

  private frames(pcm: Int16Array, onFrame: (frame: Int16Array) => void): void {
    this.taken += pcm.length;
    let out = this.down.process(pcm);
    if (!this.primed && out.length > 0) {
      // The resampler holds back a few samples of lookahead at first: without them every frame
      // would carry the end of the one before and the caller would hear each frame 20 ms late.
      const short = Math.floor((this.taken * MULAW_RATE) / PCM_RATE) - out.length;
      if (short > 0) {
        const padded = new Int16Array(short + out.length);
        padded.set(out, short);
        out = padded;
      }
      this.primed = true;
    }
    this.framer.push(out, onFrame);
  }

  /** Forgets outgoing audio not yet sent (barge-in): the next utterance starts clean. */
  dropPending(): void {
    this.down = new Resampler(PCM_RATE, MULAW_RATE);
    this.framer = new Reframer(MULAW_FRAME_BYTES);
    this.taken = 0;
    this.primed = false;
  }
}
