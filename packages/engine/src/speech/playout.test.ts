import { describe, expect, it } from "vitest";
import { sine } from "../../testing/signals.ts";
import { VirtualClock } from "../../testing/virtual-clock.ts";
import { concatPcm } from "../audio/pcm.ts";
import { Playout } from "./playout.ts";

/** When the reply's first audible frame went out, and how many frames went before it. */
async function firstAudibleFrame(lineRate: number | undefined): Promise<number | null> {
  const clock = new VirtualClock();
  let frames = 0;
  let audibleAt: number | null = null;
  const playout = new Playout(clock, { onUtteranceAudible: () => (audibleAt ??= frames) }, null, lineRate);
  playout.onOutput((frame) => {
    if (frame.type === "audio_out") frames += 1;
  });
  playout.start();
  await clock.advance(100);
  const before = frames;
  // A breathy onset: 60 ms of energy at 6 kHz only, then the voice at 300 Hz.
  const pcm = concatPcm([sine(6_000, 60, 16_000, 0.1), sine(300, 200, 16_000, 0.3)]);
  playout.queueFrame({ type: "sentence", text: "Happy to help.", utterance: 1, sentence: 1 });
  playout.queueFrame({ type: "tts_audio", pcm, utterance: 1, sentence: 1 });
  await clock.advance(400);
  playout.stop();
  return audibleAt === null ? null : audibleAt - before;
}

describe("Playout's first audible frame", () => {
  it("is the first frame with the reply's sound on a wideband line", async () => {
    expect(await firstAudibleFrame(undefined)).toBe(1);
  });

  it("is the first frame audible on the caller's 8 kHz line, past an onset the line cannot carry", async () => {
    // The 6 kHz onset fills frames 1–3; the voice starts in frame 4.
    expect(await firstAudibleFrame(8_000)).toBe(4);
  });
});
