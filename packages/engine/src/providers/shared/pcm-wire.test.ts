import { describe, expect, it } from "vitest";
import { mulawEncode } from "../../audio/mulaw.ts";
import { concatPcm } from "../../audio/pcm.ts";
import { LinearResampler, pcmBytes } from "./pcm-wire.ts";

describe("PCM helpers", () => {
  it("writes samples little-endian", () => {
    expect(Array.from(pcmBytes(Int16Array.of(1, -2, 0x1234)))).toEqual([1, 0, 0xfe, 0xff, 0x34, 0x12]);
  });

  it("resamples 16 → 24 kHz frame by frame exactly as in one piece", () => {
    const ramp = Int16Array.from({ length: 960 }, (_, i) => i * 10);
    const whole = new LinearResampler(16_000, 24_000).push(ramp);
    const framed = new LinearResampler(16_000, 24_000);
    const pieces = [];
    for (let i = 0; i < ramp.length; i += 320) pieces.push(framed.push(ramp.subarray(i, i + 320)));
    expect(concatPcm(pieces)).toEqual(whole);
    expect(whole.length).toBe(1439);
    // A linear ramp stays linear: every output step is two thirds of an input step.
    expect(whole[3]).toBe(20);
  });

  it("encodes G.711 μ-law", () => {
    expect(Array.from(mulawEncode(Int16Array.of(0, 32767, -32768, 1000)))).toEqual([0xff, 0x80, 0x00, 0xce]);
  });
});
