import { describe, expect, it } from "vitest";
import { decodeWav } from "../audio/wav.ts";
import { CallRecorder, type RecordingChannel, StreamingRecorder } from "./recorder.ts";

describe("silencing a stretch of the recording (redacted speech)", () => {
  it("zeroes one side of the in-memory recording", () => {
    const recorder = new CallRecorder();
    recorder.pushCaller(new Int16Array(1000).fill(2000));
    recorder.pushAssistant(new Int16Array(1000).fill(-2000));
    expect(recorder.position(0)).toBe(1000);
    recorder.silence(0, 200, 700);
    const [left, right] = decodeWav(recorder.toWav()).channels;
    expect(left?.subarray(200, 700).every((s) => s === 0)).toBe(true);
    expect(left?.[199]).not.toBe(0);
    expect(left?.[700]).not.toBe(0);
    expect(right?.every((s) => s !== 0)).toBe(true);
  });

  it("zeroes what it still holds and asks the sink to silence what it already wrote", () => {
    const written: Int16Array[] = [];
    const asked: [RecordingChannel, number, number][] = [];
    const recorder = new StreamingRecorder({
      write: (stereo) => written.push(stereo),
      silence: (channel, from, to) => asked.push([channel, from, to]),
    });
    const second = 16_000;
    for (let i = 0; i < 75; i++) {
      recorder.pushCaller(new Int16Array(320).fill(1000));
      recorder.pushAssistant(new Int16Array(320).fill(-1000));
    }
    // 1.5 s in: the first second is written, half a second is held.
    expect(recorder.position(0)).toBe(1.5 * second);
    recorder.silence(0, 0.5 * second, 1.25 * second);
    expect(asked).toEqual([[0, 0.5 * second, second]]);
    recorder.finish();
    const all = new Int16Array(written.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const chunk of written) {
      all.set(chunk, at);
      at += chunk.length;
    }
    const left = all.filter((_, i) => i % 2 === 0);
    const right = all.filter((_, i) => i % 2 === 1);
    expect(left.subarray(second, 1.25 * second).every((s) => s === 0)).toBe(true);
    expect(left.subarray(1.25 * second).every((s) => s === 1000)).toBe(true);
    expect(right.every((s) => s === -1000)).toBe(true);
  });
});
