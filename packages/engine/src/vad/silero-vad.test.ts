import { describe, expect, it } from "vitest";
import { FrameHarness } from "../../testing/frame-harness.ts";
import { noise, silence } from "../../testing/signals.ts";
import { concatPcm } from "../audio/pcm.ts";
import { resample } from "../audio/resample.ts";
import { ESPEAK_SAMPLE_RATE, EspeakTts } from "../providers/local/tts.ts";
import { SileroVad } from "./silero-vad.ts";
import { turnSettings } from "./turn-detector.ts";
import { VadProcessor } from "./vad-processor.ts";

async function espeakUtterance(): Promise<Int16Array> {
  const chunks = [];
  const tts = new EspeakTts({ model: "espeak-ng", voice: "en-us", speed: 1, sampleRate: 16_000 });
  for await (const c of tts.synthesize("Hello, I would like to book a table for two tonight.")) chunks.push(c.pcm);
  return resample(concatPcm(chunks), ESPEAK_SAMPLE_RATE, 16_000);
}

function frames(pcm: Int16Array) {
  const out = [];
  for (let i = 0; i + 320 <= pcm.length; i += 320) out.push({ type: "audio_in" as const, pcm: pcm.slice(i, i + 320) });
  return out;
}

async function vadEvents(pcm: Int16Array) {
  const vad = new VadProcessor(await SileroVad.create(), turnSettings("medium"));
  const h = new FrameHarness(vad);
  for (const frame of frames(pcm)) vad.queueFrame(frame);
  // The model answers from its own thread: a window is a message there and back, not a tick.
  while (!vad.idle) await new Promise((resolve) => setTimeout(resolve, 5));
  await h.settle();
  return h.ofType("vad").map((f) => f.speaking);
}

describe("Silero VAD", () => {
  it("detects speech in an eSpeak utterance, and its end", async () => {
    const speech = await espeakUtterance();
    expect(await vadEvents(concatPcm([silence(500), speech, silence(1200)]))).toEqual([true, false]);
  });

  it("stays quiet on silence and on noise", async () => {
    expect(await vadEvents(silence(2000))).toEqual([]);
    expect(await vadEvents(noise(2000, 16_000, 0.1))).toEqual([]);
  });

  it("gives a speech probability per window", async () => {
    const vad = await SileroVad.create();
    const speech = await espeakUtterance();
    let max = 0;
    for (let i = 0; i + 320 <= speech.length; i += 320)
      max = Math.max(max, await vad.process(speech.subarray(i, i + 320)));
    expect(max).toBeGreaterThan(0.8);
  });
});

describe("Silero batching", () => {
  it("gives each call the same probabilities whether its windows run alone or batched with others", async () => {
    const speech = await espeakUtterance();
    const run = async (vad: SileroVad, pcm: Int16Array) => {
      const out: number[] = [];
      for (let i = 0; i + 320 <= pcm.length; i += 320) out.push(await vad.process(pcm.subarray(i, i + 320)));
      return out;
    };
    const alone = await run(await SileroVad.create(), speech);
    const other = noise(speech.length / 16, 16_000, 0.05);
    const [batched] = await Promise.all([run(await SileroVad.create(), speech), run(await SileroVad.create(), other)]);
    expect(batched?.length).toBe(alone.length);
    for (const [i, p] of (batched ?? []).entries()) expect(p).toBeCloseTo(alone[i] as number, 4);
  });
});
