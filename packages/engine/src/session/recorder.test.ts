import { describe, expect, it } from "vitest";
import { decodeWav } from "../audio/wav.ts";
import { sine } from "../testing/signals.ts";
import { CallRecorder } from "./recorder.ts";

describe("call recorder", () => {
  it("holds a three-minute call in under 6 MB", () => {
    const recorder = new CallRecorder();
    const frame = new Int16Array(320).fill(1000);
    for (let i = 0; i < 180 * 50; i++) {
      recorder.pushCaller(frame);
      recorder.pushAssistant(frame);
    }
    expect(recorder.heldBytes()).toBe(180 * 16_000 * 2);
    expect(recorder.heldBytes()).toBeLessThan(6 * 1024 * 1024);
  });

  it("writes a 16-bit stereo WAV close to what was heard on each side", () => {
    const recorder = new CallRecorder();
    const caller = sine(440, 200, 16_000, 0.5);
    recorder.pushCaller(caller);
    recorder.pushAssistant(new Int16Array(caller.length));
    const wav = decodeWav(recorder.toWav());
    expect(wav.sampleRate).toBe(16_000);
    const [left, right] = wav.channels;
    expect(right?.every((s) => s === 0)).toBe(true);
    // μ-law keeps every sample within about 3 % of its size.
    for (let i = 0; i < caller.length; i += 37) {
      const want = caller[i] ?? 0;
      expect(Math.abs((left?.[i] ?? 0) - want)).toBeLessThanOrEqual(Math.abs(want) * 0.04 + 8);
    }
  });
});
