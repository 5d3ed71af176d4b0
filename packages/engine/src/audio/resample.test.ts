import { describe, expect, it } from "vitest";
import { sine } from "../../testing/signals.ts";
import { toneRatio } from "./goertzel.ts";
import { rms } from "./pcm.ts";
import { Resampler, resample } from "./resample.ts";

/** RMS of the middle of a clip, away from the filter's start and end transients. */
function middleRms(pcm: Int16Array): number {
  return rms(pcm.subarray(Math.floor(pcm.length * 0.2), Math.floor(pcm.length * 0.8)));
}

describe("resampler", () => {
  it("keeps a 1 kHz sine through 48 kHz → 16 kHz → 48 kHz", () => {
    const original = sine(1000, 500, 48_000);
    const down = resample(original, 48_000, 16_000);
    const back = resample(down, 16_000, 48_000);
    expect(down.length).toBe(8000);
    expect(back.length).toBe(original.length);
    expect(middleRms(back) / middleRms(original)).toBeGreaterThan(0.97);
    expect(middleRms(back) / middleRms(original)).toBeLessThan(1.03);
    const mid = back.subarray(4800, 4800 + 4800);
    expect(toneRatio(mid, 1000, 48_000)).toBeGreaterThan(0.98);
    // Sample by sample the round trip matches the original closely (no phase shift, no distortion).
    let err = 0;
    for (let i = 4800; i < 19_200; i++) err += ((back[i] as number) - (original[i] as number)) ** 2;
    const snr = 10 * Math.log10(middleRms(original) ** 2 / (err / 14_400));
    expect(snr).toBeGreaterThan(40);
  });

  it("removes a 7 kHz tone going to 8 kHz instead of aliasing it to 1 kHz", () => {
    const tone = sine(7000, 500, 16_000);
    const down = resample(tone, 16_000, 8000);
    const attenuationDb = 20 * Math.log10(middleRms(down) / middleRms(tone));
    expect(attenuationDb).toBeLessThan(-40);
  });

  it("passes a 3 kHz tone going to 8 kHz", () => {
    const tone = sine(3000, 500, 16_000);
    const down = resample(tone, 16_000, 8000);
    expect(middleRms(down) / middleRms(tone)).toBeGreaterThan(0.95);
  });

  it.each([
    [8000, 16_000],
    [22_050, 16_000],
    [24_000, 16_000],
    [44_100, 16_000],
    [16_000, 22_050],
    [16_000, 24_000],
    [16_000, 44_100],
  ])("converts %i Hz → %i Hz keeping the length and a 440 Hz tone", (from, to) => {
    const tone = sine(440, 400, from);
    const out = resample(tone, from, to);
    expect(out.length).toBe(Math.ceil((tone.length * to) / from));
    expect(
      toneRatio(out.subarray(Math.floor(out.length * 0.25), Math.floor(out.length * 0.75)), 440, to),
    ).toBeGreaterThan(0.9);
  });

  it("gives the same samples streamed in odd chunks as in one piece", () => {
    const tone = sine(440, 300, 22_050);
    const whole = resample(tone, 22_050, 16_000);
    const r = new Resampler(22_050, 16_000);
    const parts: number[] = [];
    for (let i = 0; i < tone.length; i += 331) parts.push(...r.process(tone.subarray(i, i + 331)));
    parts.push(...r.flush());
    expect(Int16Array.from(parts)).toEqual(whole);
  });

  it.each([
    [8000, 16_000],
    [16_000, 8000],
  ])("gives the same samples for speech between stretches of silence, %i → %i Hz in 20 ms frames", (from, to) => {
    // Exact zeros are skipped by the filter: what comes out must not change at the edges of sound.
    const tone = sine(440, 200, from);
    const clip = new Int16Array(tone.length * 4);
    clip.set(tone, tone.length);
    clip.set(tone.subarray(0, tone.length / 2), tone.length * 3);
    const whole = resample(clip, from, to);
    const r = new Resampler(from, to);
    const frame = from / 50;
    const parts: number[] = [];
    for (let i = 0; i < clip.length; i += frame) parts.push(...r.process(clip.subarray(i, i + frame)));
    parts.push(...r.flush());
    expect(Int16Array.from(parts)).toEqual(whole);
    expect(whole.some((s) => s !== 0)).toBe(true);
  });
});
