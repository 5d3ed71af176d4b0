import { describe, expect, it } from "vitest";
import { encodeWav } from "../../audio/wav.ts";
import { PcmDecoder, streamPcmBody } from "./pcm-stream.ts";
import { pcmBytes } from "./pcm-wire.ts";

const samples = Int16Array.of(1, -1, 300, -300, 32767, -32768);

function pieces(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let offset = 0;
  for (const size of sizes) {
    out.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  out.push(bytes.subarray(offset));
  return out;
}

describe("PcmDecoder", () => {
  it("joins samples split across chunks at odd byte boundaries", () => {
    const decoder = new PcmDecoder(16_000);
    const out = pieces(pcmBytes(samples), [1, 4, 1, 3]).flatMap((piece) => Array.from(decoder.push(piece)));
    expect(Int16Array.from(out)).toEqual(samples);
  });

  it("skips a WAV header split across chunks and takes its sample rate", () => {
    const decoder = new PcmDecoder(16_000);
    const out = pieces(encodeWav({ sampleRate: 24_000, channels: [samples] }), [3, 20, 22, 1]).flatMap((piece) =>
      Array.from(decoder.push(piece)),
    );
    expect(Int16Array.from(out)).toEqual(samples);
    expect(decoder.sampleRate).toBe(24_000);
  });

  it("stops reading when the caller aborts, with the caller's reason rather than a provider error", async () => {
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(pcmBytes(samples));
      },
    });
    const response = new Response(body);
    const iterator = streamPcmBody("Test", response, 16_000, controller.signal)[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    const reason = new Error("barge-in");
    const next = iterator.next();
    controller.abort(reason);
    await expect(next).rejects.toBe(reason);
  });
});
