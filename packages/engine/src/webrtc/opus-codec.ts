import OpusScript from "opusscript";

/** Parley's audio rate; Opus encodes and decodes at it directly, so no resampling is needed. */
export const OPUS_PCM_RATE = 16_000;
/** 20 ms of 16 kHz audio: one Opus frame. */
export const OPUS_FRAME_SAMPLES = 320;

const copyToInt16 = (bytes: Uint8Array): Int16Array => {
  // The codec's output is a view into its WebAssembly memory: copy before the next call reuses it.
  const copy = Uint8Array.from(bytes);
  return new Int16Array(copy.buffer, 0, copy.byteLength >> 1);
};

/** One call's Opus encoder and decoder (mono, 16 kHz PCM at the boundary); free them with close(). */
export class OpusCodec {
  private readonly encoder = new OpusScript(OPUS_PCM_RATE, 1, OpusScript.Application.VOIP);
  private readonly decoder = new OpusScript(OPUS_PCM_RATE, 1, OpusScript.Application.VOIP);
  private closed = false;

  /** Encodes exactly one 20 ms frame (320 samples). */
  encode(frame: Int16Array): Buffer {
    const packet = this.encoder.encode(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength), frame.length);
    return Buffer.from(packet);
  }

  /** Decodes one Opus packet into 16 kHz PCM; an undecodable packet is empty audio. */
  decode(packet: Buffer): Int16Array {
    if (this.closed || packet.length === 0) return new Int16Array(0);
    try {
      return copyToInt16(this.decoder.decode(packet));
    } catch {
      return new Int16Array(0);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.encoder.delete();
    this.decoder.delete();
  }
}
