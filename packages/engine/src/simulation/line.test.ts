import { describe, expect, it } from "vitest";
import { sine } from "../../testing/signals.ts";
import { VirtualClock } from "../../testing/virtual-clock.ts";
import { concatPcm, rms } from "../audio/pcm.ts";
import { resample } from "../audio/resample.ts";
import { SAMPLES_PER_FRAME } from "../constants.ts";
import { createLine, createLineMeter } from "./line.ts";
import type { Line } from "./types.ts";

const dbfs = (pcm: Int16Array) => 20 * Math.log10(rms(pcm) / 32768);

/** Sends `clip` through one direction of the line in 20 ms frames and joins what comes out. */
function send(line: Line, clip: Int16Array, way: "toAssistant" | "toCaller" = "toCaller"): Int16Array[] {
  const out: Int16Array[] = [];
  for (let i = 0; i + SAMPLES_PER_FRAME <= clip.length; i += SAMPLES_PER_FRAME) {
    out.push(line[way](clip.subarray(i, i + SAMPLES_PER_FRAME)));
  }
  return out;
}

/** Signal-to-error ratio of `actual` against `reference`, at the lag (0–120 samples) that fits best. */
function bestSnr(reference: Int16Array, actual: Int16Array): number {
  let best = Number.NEGATIVE_INFINITY;
  for (let lag = 0; lag <= 120; lag++) {
    let signal = 0;
    let error = 0;
    for (let i = 1000; i < reference.length - 1000; i++) {
      const r = reference[i] as number;
      signal += r * r;
      error += (r - (actual[i + lag] as number)) ** 2;
    }
    best = Math.max(best, 10 * Math.log10(signal / Math.max(1, error)));
  }
  return best;
}

describe("the browser line", () => {
  it("passes frames unchanged at 16 kHz", () => {
    const line = createLine({ profile: "browser", noiseDbfs: -30, packetLossPercent: 20, seed: "s" });
    const frame = sine(440, 20);
    expect(line.lineRate).toBe(16_000);
    expect(line.toAssistant(frame)).toEqual(frame);
    expect(line.toCaller(frame)).toEqual(frame);
  });
});

describe("the phone line", () => {
  const clean = () => createLine({ profile: "phone", noiseDbfs: null, packetLossPercent: 0, seed: "s" });

  it("keeps 20 ms frames whole and runs at 8 kHz", () => {
    const line = clean();
    expect(line.lineRate).toBe(8000);
    for (const frame of send(line, sine(440, 400))) expect(frame.length).toBe(SAMPLES_PER_FRAME);
  });

  it("carries the voice band and removes what 8 kHz cannot hold", () => {
    const voice = concatPcm(send(clean(), sine(1000, 1000, 16_000, 0.3)).slice(5));
    const high = concatPcm(send(clean(), sine(6000, 1000, 16_000, 0.3)).slice(5));
    expect(dbfs(voice)).toBeGreaterThan(dbfs(sine(1000, 1000, 16_000, 0.3)) - 1);
    expect(dbfs(high)).toBeLessThan(-60);
  });

  it("adds G.711 μ-law quantisation on top of the band limit", () => {
    const tone = sine(700, 1000, 16_000, 0.3);
    // The same band limit without the codec: what the line would give if it did not quantise.
    const bandLimited = resample(resample(tone, 16_000, 8000), 8000, 16_000);
    const heard = concatPcm(send(clean(), tone));
    const snr = bestSnr(bandLimited, heard);
    // μ-law's signal-to-quantisation ratio is about 35–39 dB at speech levels: present, not gross.
    expect(snr).toBeGreaterThan(28);
    expect(snr).toBeLessThan(45);
    // Frame edges do not click: the stream is as clean at the edges as inside the frames.
    expect(bestSnr(bandLimited.subarray(0, 16_000), heard)).toBeGreaterThan(28);
  });

  it("loses about the requested share of packets, the same ones for the same seed", () => {
    const tone = sine(500, 20_000, 16_000, 0.3);
    // A lost packet's hole straddles two frames (the codec path's delay): the mostly silent one counts.
    const lost = (levels: number[]) => levels.slice(2).filter((level) => level < 0.5 * rms(tone)).length;
    const levels = (line: Line, way: "toAssistant" | "toCaller" = "toCaller") => send(line, tone, way).map(rms);
    const line = (seed: string) => createLine({ profile: "phone", noiseDbfs: null, packetLossPercent: 20, seed });
    const first = levels(line("result-1"));
    // 1000 packets at 20 %: 200 expected, a standard deviation of about 13.
    expect(lost(first)).toBeGreaterThan(160);
    expect(lost(first)).toBeLessThan(240);
    expect(levels(line("result-1"))).toEqual(first);
    expect(levels(line("result-2"))).not.toEqual(first);
    // Each way loses on its own.
    expect(levels(line("result-1"), "toAssistant")).not.toEqual(first);
    expect(lost(levels(clean()))).toBe(0);
  });

  it("adds the caller's background noise at the requested level, on the caller's side only", () => {
    const line = createLine({ profile: "phone", noiseDbfs: -40, packetLossPercent: 0, seed: "n" });
    const silence = new Int16Array(SAMPLES_PER_FRAME * 500);
    const toAssistant = concatPcm(send(line, silence, "toAssistant").slice(5));
    expect(dbfs(toAssistant)).toBeGreaterThan(-41);
    expect(dbfs(toAssistant)).toBeLessThan(-39);
    expect(rms(concatPcm(send(line, silence, "toCaller")))).toBe(0);
  });
});

describe("the line meter", () => {
  const tone = sine(440, 20);
  const quiet = new Int16Array(SAMPLES_PER_FRAME);

  /** Feeds one frame a side every 20 ms: `caller` and `assistant` say which are audible at a time. */
  async function play(
    clock: VirtualClock,
    meter: ReturnType<typeof createLineMeter>,
    untilMs: number,
    caller: (t: number) => boolean,
    assistant: (t: number) => boolean,
  ) {
    while (clock.now() < untilMs) {
      const t = clock.now();
      meter.caller(caller(t) ? tone : quiet);
      meter.assistant(assistant(t) ? tone : quiet);
      await clock.advance(20);
    }
  }

  it("reports nothing when nothing was audible", () => {
    const meter = createLineMeter(new VirtualClock());
    meter.caller(quiet);
    meter.assistant(quiet);
    expect(meter.report()).toEqual({ longestSilenceMs: null, waitsMs: [] });
  });

  it("measures the longest silence and each wait from the caller's last sound to the reply", async () => {
    const clock = new VirtualClock();
    const meter = createLineMeter(clock);
    const between = (t: number, from: number, to: number) => t >= from && t < to;
    await play(
      clock,
      meter,
      6000,
      // The caller: 1000–2000 and 3500–4000 ms.
      (t) => between(t, 1000, 2000) || between(t, 3500, 4000),
      // The assistant: a greeting 0–600, a reply 2700–3300 (with a word gap), one 5000–5400,
      // and talk over the caller's second turn 3700–3800 (no wait: it never went quiet for it).
      (t) =>
        between(t, 0, 600) ||
        between(t, 2700, 3000) ||
        between(t, 3060, 3300) ||
        between(t, 3700, 3800) ||
        between(t, 5000, 5400),
    );
    const report = meter.report();
    // The caller's last frame at 1980, the reply's first at 2700; the last turn 3980 → 5000.
    expect(report.waitsMs).toEqual([720, 1020]);
    // Gaps: 580 → 1000 (400), 1980 → 2700 (700), 3280 → 3500 (200), 3980 → 5000 (1000).
    expect(report.longestSilenceMs).toBe(1000);
  });
});
