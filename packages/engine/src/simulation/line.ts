import { mulawDecode, mulawEncode } from "../audio/mulaw.ts";
import { clampSample } from "../audio/pcm.ts";
import { Resampler } from "../audio/resample.ts";
import { ENGINE_SAMPLE_RATE } from "../constants.ts";
import { seededRandom } from "./seeded-random.ts";
import type { Line, LineOptions } from "./types.ts";

export { createLineMeter } from "./line-meter.ts";

/** A phone line's rate: G.711 carries 8 kHz. */
const PHONE_RATE = 8000;

/**
 * Frames of a fixed length out for frames of that length in. The resamplers hold back a few
 * samples of lookahead at first; padding that shortfall with silence once at the front keeps every
 * later frame whole, so the far end gets one 20 ms frame per 20 ms frame sent (a constant ~1 ms
 * delay, as a real codec path has).
 */
class FrameAligner {
  private pending = new Int16Array(0);
  private primed = false;

  take(produced: Int16Array, length: number): Int16Array {
    const joined = new Int16Array(this.pending.length + produced.length);
    joined.set(this.pending);
    joined.set(produced, this.pending.length);
    if (!this.primed && joined.length < length) {
      const padded = new Int16Array(length);
      padded.set(joined, length - joined.length);
      this.pending = new Int16Array(0);
      if (joined.length > 0) this.primed = true;
      return padded;
    }
    this.primed = true;
    const frame = new Int16Array(length);
    frame.set(joined.subarray(0, length));
    this.pending = joined.slice(Math.min(length, joined.length));
    return frame;
  }
}

/** One direction of a phone line: down to 8 kHz, G.711 μ-law, lost packets, background noise, back up. */
class PhoneDirection {
  private readonly down = new Resampler(ENGINE_SAMPLE_RATE, PHONE_RATE);
  private readonly up = new Resampler(PHONE_RATE, ENGINE_SAMPLE_RATE);
  private readonly narrowFrames = new FrameAligner();
  private readonly wideFrames = new FrameAligner();
  private readonly lossRandom: () => number;
  private readonly noiseRandom: () => number;
  /** Peak of the uniform noise that has the requested RMS (uniform noise's RMS is peak / √3). */
  private readonly noisePeak: number;

  constructor(
    private readonly lossShare: number,
    noiseDbfs: number | null,
    seed: string,
  ) {
    this.lossRandom = seededRandom(`${seed}:loss`);
    this.noiseRandom = seededRandom(`${seed}:noise`);
    this.noisePeak = noiseDbfs === null ? 0 : 32768 * 10 ** (noiseDbfs / 20) * Math.sqrt(3);
  }

  pass(pcm: Int16Array): Int16Array {
    const narrowLength = Math.round((pcm.length * PHONE_RATE) / ENGINE_SAMPLE_RATE);
    const narrow = this.narrowFrames.take(this.down.process(pcm), narrowLength);
    // The background is picked up with the caller's voice, so it goes through the codec too.
    if (this.noisePeak > 0) {
      for (let i = 0; i < narrow.length; i++) {
        narrow[i] = clampSample((narrow[i] as number) + (this.noiseRandom() * 2 - 1) * this.noisePeak);
      }
    }
    let heard = mulawDecode(mulawEncode(narrow));
    // A lost packet leaves a 20 ms hole; the far end plays silence there (no concealment).
    if (this.lossShare > 0 && this.lossRandom() < this.lossShare) heard = new Int16Array(heard.length);
    return this.wideFrames.take(this.up.process(heard), pcm.length);
  }
}

/** The line a test call's audio crosses each way (see `LineOptions`): a browser's as-is, a phone's narrowed. */
export function createLine(options: LineOptions): Line {
  if (options.profile === "browser") {
    return { lineRate: ENGINE_SAMPLE_RATE, toAssistant: (pcm) => pcm, toCaller: (pcm) => pcm };
  }
  const loss = Math.min(30, Math.max(0, options.packetLossPercent)) / 100;
  // Separate streams each way: the caller's losses do not depend on how much the assistant said.
  const toAssistant = new PhoneDirection(loss, options.noiseDbfs, `${options.seed}:to-assistant`);
  const toCaller = new PhoneDirection(loss, null, `${options.seed}:to-caller`);
  return {
    lineRate: PHONE_RATE,
    toAssistant: (pcm) => toAssistant.pass(pcm),
    toCaller: (pcm) => toCaller.pass(pcm),
  };
}
