import { describe, expect, it } from "vitest";
import { rms } from "../audio/pcm.ts";
import { MULAW_FRAME_BYTES, MulawStreamAudio } from "./mulaw-audio.ts";

function tone(samples: number, rate: number): Int16Array {
  return Int16Array.from({ length: samples }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 400 * i) / rate)));
}

describe("μ-law stream audio", () => {
  it("cuts outgoing audio into 20 ms frames however it arrives, holding the remainder", () => {
    const audio = new MulawStreamAudio();
    const sizes: number[] = [];
    for (const chunk of [333, 1000, 7, 2860]) {
      for (const payload of audio.encode(tone(chunk, 16_000))) sizes.push(Buffer.from(payload, "base64").length);
    }
    expect(sizes.every((size) => size === MULAW_FRAME_BYTES)).toBe(true);
    // 4200 samples at 16 kHz are 2100 at 8 kHz: 13 whole frames, the rest held back.
    expect(sizes.length).toBe(13);
  });

  it("drops held-back audio on barge-in", () => {
    const audio = new MulawStreamAudio();
    audio.encode(tone(300, 16_000));
    audio.dropPending();
    // A fresh start: 640 samples give two frames, the resampler's short delay filled with silence.
    const frames = audio.encode(tone(640, 16_000));
    expect(frames.length).toBe(2);
  });

  it("sends each 20 ms of assistant audio in the frame it was handed over with, not the next", () => {
    const audio = new MulawStreamAudio();
    // A frame of silence, then a tone: the tone's payload is the second, not held back to a third.
    expect(audio.encode(new Int16Array(320))).toHaveLength(1);
    const [payload] = audio.encode(tone(320, 16_000));
    expect(payload).toBeDefined();
    const decoded = new MulawStreamAudio().decode(payload ?? "");
    expect(rms(decoded)).toBeGreaterThan(3_000);
  });

  it("turns 8 kHz μ-law payloads into 16 kHz PCM of the same loudness", () => {
    const sender = new MulawStreamAudio();
    const receiver = new MulawStreamAudio();
    const payloads = sender.encode(tone(16_000, 16_000));
    let samples = 0;
    let loudest = 0;
    for (const payload of payloads) {
      const pcm = receiver.decode(payload);
      samples += pcm.length;
      loudest = Math.max(loudest, rms(pcm));
    }
    expect(samples).toBeGreaterThan(15_500);
    expect(loudest).toBeGreaterThan(5_000);
  });

  it("skips audio that is not sent exactly as encoding it would, so what follows is the same", () => {
    const sent = new MulawStreamAudio();
    const skipped = new MulawStreamAudio();
    const pieces = [
      tone(333, 16_000),
      new Int16Array(320),
      new Int16Array(320),
      tone(900, 16_000),
      new Int16Array(640),
    ];
    const after = tone(1200, 16_000);
    pieces.forEach((pcm, i) => {
      sent.encode(pcm);
      if (i === 1 || i === 2 || i === 4) skipped.skip(pcm);
      else skipped.encode(pcm);
    });
    expect(skipped.encode(after)).toEqual(sent.encode(after));
  });
});
