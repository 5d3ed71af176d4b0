import { describe, expect, it } from "vitest";
import { FakeTts } from "../../testing/fake-providers.ts";
import { VirtualClock } from "../../testing/virtual-clock.ts";
import { createSpeechPipeline } from "./speech-pipeline.ts";

function setup(msPerWord = 200) {
  const clock = new VirtualClock();
  const tts = new FakeTts({ msPerWord });
  const frames: Int16Array[] = [];
  const log: string[] = [];
  const { output, playout } = createSpeechPipeline({
    clock,
    tts,
    hooks: {
      onFrame: (pcm) => frames.push(pcm),
      onStart: (u) => log.push(`start ${u.id}`),
      onDone: (u) => log.push(`done ${u.id}`),
    },
  });
  playout.start();
  const speechFrames = () => frames.filter((f) => f.some((s) => s !== 0)).length;
  return { clock, tts, frames, log, output, speechFrames };
}

describe("speech output", () => {
  it("speaks streamed text sentence by sentence, paced at one 20 ms frame per tick", async () => {
    const { clock, tts, frames, output, log, speechFrames } = setup();
    const u = output.begin();
    u.write("Hello there. How ");
    await clock.advance(0);
    expect(tts.texts).toEqual(["Hello there."]);
    u.write("are you?");
    u.end();
    await clock.advance(1000);
    expect(tts.texts).toEqual(["Hello there.", "How are you?"]);
    // 5 words × 200 ms = 1 s of speech = 50 frames, sent over 1 s of clock time.
    expect(speechFrames()).toBe(50);
    expect(frames.every((f) => f.length === 320)).toBe(true);
    await clock.advance(100);
    expect(log).toEqual(["start 1", "done 1"]);
    await u.done;
  });

  it("queues an utterance said while another is still streaming", async () => {
    const { clock, tts, output } = setup();
    const reply = output.begin();
    reply.write("First part");
    const warning = output.say("Time is almost up.");
    await clock.advance(100);
    expect(tts.texts).toEqual([]);
    reply.write(" done.");
    reply.end();
    await clock.advance(3000);
    expect(tts.texts).toEqual(["First part done.", "Time is almost up."]);
    await Promise.all([reply.done, warning.done]);
  });

  it("stops within a frame on interruption and reports the words heard", async () => {
    const { clock, output, frames } = setup(100);
    const u = output.say("One two three four. Five six seven eight.");
    await clock.advance(600); // 4 words of the first sentence = 400 ms, then 200 ms of the second
    const cut = output.interrupt();
    expect(cut).toEqual([u]);
    expect(u.heardText).toBe("One two three four. Five six");
    const before = frames.length;
    await clock.advance(100);
    expect(frames.slice(before).every((f) => f.every((s) => s === 0))).toBe(true);
    expect(output.active).toBe(false);
  });
});
