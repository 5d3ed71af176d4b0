import { describe, expect, it } from "vitest";
import { sine } from "../../testing/signals.ts";
import { decodeWav } from "../audio/wav.ts";
import { CallRecorder, StreamingRecorder } from "./recorder.ts";

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

describe("streaming recorder", () => {
  const recordInto = () => {
    const written: Int16Array[] = [];
    const recorder = new StreamingRecorder({ write: (stereo) => written.push(stereo) });
    const samples = () => written.reduce((n, c) => n + c.length, 0) / 2;
    return { recorder, written, samples };
  };

  it("writes both sides interleaved as they arrive, holding no more than a second", () => {
    const { recorder, written, samples } = recordInto();
    const caller = new Int16Array(320).fill(1000);
    const assistant = new Int16Array(320).fill(-2000);
    for (let i = 0; i < 180 * 50; i++) {
      recorder.pushCaller(caller);
      recorder.pushAssistant(assistant);
    }
    expect(samples()).toBe(180 * 16_000);
    expect([written[0]?.[0], written[0]?.[1]]).toEqual([1000, -2000]);
    recorder.finish();
    expect(samples()).toBe(180 * 16_000);
  });

  it("fills a silent side (a muted caller) with silence so the sides stay in step", () => {
    const { recorder, written, samples } = recordInto();
    const assistant = new Int16Array(320).fill(500);
    for (let i = 0; i < 3 * 50; i++) recorder.pushAssistant(assistant);
    // Two of the three seconds are out already; the last stays until the call ends.
    expect(samples()).toBe(2 * 16_000);
    recorder.finish();
    expect(samples()).toBe(3 * 16_000);
    const all = written.flatMap((c) => [...c]);
    expect(all.filter((_, i) => i % 2 === 0).every((s) => s === 0)).toBe(true);
    expect(all.filter((_, i) => i % 2 === 1).every((s) => s === 500)).toBe(true);
  });

  it("pairs the sides sample by sample whatever sizes their pieces come in", () => {
    const { recorder, written } = recordInto();
    const total = 40_000;
    const ramp = (from: number, n: number, sign: number) =>
      Int16Array.from({ length: n }, (_, i) => sign * ((from + i) % 30_000));
    let caller = 0;
    let assistant = 0;
    while (caller < total || assistant < total) {
      if (caller <= assistant && caller < total) {
        const n = Math.min(320, total - caller);
        recorder.pushCaller(ramp(caller, n, 1));
        caller += n;
      } else {
        const n = Math.min(777, total - assistant);
        recorder.pushAssistant(ramp(assistant, n, -1));
        assistant += n;
      }
    }
    recorder.finish();
    const all = written.flatMap((c) => [...c]);
    expect(all).toHaveLength(2 * total);
    for (let i = 0; i < total; i += 97) expect([all[2 * i], all[2 * i + 1]]).toEqual([i % 30_000, -(i % 30_000) || 0]);
  });

  it("writes whole seconds when one side started late and stays more than a second behind", () => {
    const { recorder, written, samples } = recordInto();
    const caller = new Int16Array(320).fill(700);
    const assistant = new Int16Array(320).fill(-300);
    // The assistant's side starts 1.5 s before the caller's and stays that far ahead for a minute.
    for (let i = 0; i < 75; i++) recorder.pushAssistant(assistant);
    for (let i = 0; i < 60 * 50; i++) {
      recorder.pushAssistant(assistant);
      recorder.pushCaller(caller);
    }
    recorder.finish();
    expect(samples()).toBe(61.5 * 16_000);
    expect(written.slice(0, -1).every((piece) => piece.length >= 2 * 16_000)).toBe(true);
    const all = written.flatMap((c) => [...c]);
    const at = (second: number) => [all[2 * second * 16_000], all[2 * second * 16_000 + 1]];
    // Held back at most a second: the caller's side starts half a second in (as it always has).
    expect(at(0.25)).toEqual([0, -300]);
    expect(at(0.75)).toEqual([700, -300]);
    expect(at(61)).toEqual([0, -300]);
  });
});
