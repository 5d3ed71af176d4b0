import { describe, expect, it } from "vitest";
import { FrameHarness } from "../../testing/frame-harness.ts";
import { noise, silence } from "../../testing/signals.ts";
import { turnSettings } from "./turn-detector.ts";
import { VadProcessor } from "./vad-processor.ts";
import { EnergyVad, type VoiceActivityModel } from "./voice-activity.ts";

/** A model like Silero: its probability trails the voice, still high for `trailFrames` frames after it stops. */
class TrailingVad implements VoiceActivityModel {
  readonly name = "trailing";
  private quietFrames = Number.POSITIVE_INFINITY;
  constructor(private readonly trailFrames: number) {}
  process(frame: Int16Array): number {
    const loud = frame.some((s) => Math.abs(s) > 1000);
    this.quietFrames = loud ? 0 : this.quietFrames + 1;
    return this.quietFrames <= this.trailFrames ? 0.9 : 0.05;
  }
  reset(): void {}
  close(): void {}
}

function frames(pcm: Int16Array) {
  const out = [];
  for (let i = 0; i + 320 <= pcm.length; i += 320) out.push({ type: "audio_in" as const, pcm: pcm.slice(i, i + 320) });
  return out;
}

describe("VAD processor", () => {
  it("reports speech start after the minimum speech and end after the turn-end silence", async () => {
    const h = new FrameHarness(new VadProcessor(new EnergyVad(), turnSettings("medium")));
    await h.send(...frames(silence(200)), ...frames(noise(600)), ...frames(silence(1000)));
    const types = h.types();
    const start = types.indexOf("vad");
    // 10 silent frames, then 10 frames (200 ms) of speech before the start is confirmed.
    expect(types.slice(0, start).filter((t) => t === "audio_in")).toHaveLength(20);
    expect(h.ofType("vad").map((f) => f.speaking)).toEqual([true, false]);
    const end = types.lastIndexOf("vad");
    // 30 speech frames, then 35 silent frames (700 ms) until the end.
    expect(types.slice(0, end).filter((t) => t === "audio_in")).toHaveLength(10 + 30 + 35);
  });

  it("ignores a burst shorter than the minimum speech", async () => {
    const h = new FrameHarness(new VadProcessor(new EnergyVad(), turnSettings("low")));
    await h.send(...frames(noise(200)), ...frames(silence(400)));
    expect(h.ofType("vad")).toEqual([]);
  });

  it("waits a shorter silence at high sensitivity", async () => {
    const h = new FrameHarness(new VadProcessor(new EnergyVad(), turnSettings("high")));
    await h.send(...frames(noise(300)), ...frames(silence(520)));
    expect(h.ofType("vad").map((f) => f.speaking)).toEqual([true, false]);
  });

  it("ends the speech at its last frame with sound, not where the model's probability trails off", async () => {
    const h = new FrameHarness(new VadProcessor(new TrailingVad(5), turnSettings("medium")));
    const stamped = [...frames(noise(600)), ...frames(silence(1000))].map((f, i) => ({
      ...f,
      receivedAt: (i + 1) * 20,
    }));
    await h.send(...stamped);
    const end = h.ofType("vad").find((f) => !f.speaking);
    // 30 frames of speech, the last arriving at 600 ms; the 5 silent frames the model still calls voiced do not count.
    expect(end?.speechEndedAt).toBe(600);
  });
});
