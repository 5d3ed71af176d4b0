import { describe, expect, it } from "vitest";
import { Downsampler, Upsampler } from "./rate-convert.ts";

const tone = (rate: number, hz: number, n: number, offset = 0) =>
  Int16Array.from({ length: n }, (_, i) => Math.round(10_000 * Math.sin((2 * Math.PI * hz * (i + offset)) / rate)));

const rms = (pcm: Int16Array) => Math.sqrt(pcm.reduce((sum, s) => sum + s * s, 0) / pcm.length);

describe("8 kHz ↔ 16 kHz for SIP calls", () => {
  it("halves a 16 kHz frame and keeps a voice-band tone's level", () => {
    const down = new Downsampler();
    const frames = [0, 1, 2].map((f) => down.process(tone(16_000, 500, 320, f * 320)));
    expect(frames.every((f) => f.length === 160)).toBe(true);
    expect(rms(frames[2] ?? new Int16Array())).toBeGreaterThan(6_500);
  });

  it("doubles an 8 kHz frame without a click at the frame edge", () => {
    const up = new Upsampler();
    const first = up.process(tone(8_000, 300, 160));
    const second = up.process(tone(8_000, 300, 160, 160));
    expect(second.length).toBe(320);
    // The first sample of a frame sits between the last of the previous frame and its own first.
    expect(Math.abs((second[0] ?? 0) - (first[319] ?? 0))).toBeLessThan(1_500);
  });
});
