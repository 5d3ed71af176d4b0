import { describe, expect, it } from "vitest";
import { createDownsampler, floatToInt16, int16ToFloat, rms } from "./pcm.ts";

describe("call PCM helpers", () => {
  it("converts float samples to 16-bit and back within one step", () => {
    const input = Float32Array.from([0, 0.5, -0.5, 1, -1, 2]);
    const back = int16ToFloat(floatToInt16(input));
    expect(back[1]).toBeCloseTo(0.5, 3);
    expect(back[2]).toBeCloseTo(-0.5, 3);
    expect(back[5]).toBeCloseTo(1, 3); // clipped
  });

  it("measures silence as 0 and a full-scale square as 1", () => {
    expect(rms(new Float32Array(10))).toBe(0);
    expect(rms(Float32Array.from([1, -1, 1, -1]))).toBeCloseTo(1);
  });

  it("downsamples 48 kHz to 16 kHz across chunk boundaries without losing samples", () => {
    const down = createDownsampler(48_000);
    let total = 0;
    for (let i = 0; i < 10; i++) total += down(new Float32Array(128).fill(0.25)).length;
    expect(total).toBe(Math.floor((1280 / 3) | 0));
    const tone = down(new Float32Array(300).fill(0.25));
    expect(tone.every((s) => Math.abs(s - 0.25) < 1e-6)).toBe(true);
  });

  it("handles 44.1 kHz input", () => {
    const down = createDownsampler(44_100);
    const out = down(new Float32Array(4410));
    expect(out.length).toBeGreaterThanOrEqual(1599);
    expect(out.length).toBeLessThanOrEqual(1600);
  });
});
