import { describe, expect, it } from "vitest";
import { silence, sine } from "../signals.ts";
import { callerSpeech, frameRms, isNonSilent, loudMs } from "./audio-checks.ts";

describe("audio checks", () => {
  it("tells speech-level audio from silence, frame by frame", () => {
    expect(frameRms(sine(440, 100))).toHaveLength(5);
    expect(isNonSilent(sine(440, 500))).toBe(true);
    expect(isNonSilent(silence(500))).toBe(false);
    expect(loudMs(new Int16Array([...silence(400), ...sine(440, 200)]))).toBe(200);
  });

  it("synthesizes caller speech at 16 kHz with espeak-ng", () => {
    const pcm = callerSpeech("I would like to book a table for two.");
    expect(pcm.length / 16_000).toBeGreaterThan(1);
    expect(isNonSilent(pcm, { minMs: 500 })).toBe(true);
  });
});
