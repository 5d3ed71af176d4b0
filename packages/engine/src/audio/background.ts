import { ENGINE_SAMPLE_RATE } from "../constants.ts";
import { clampSample } from "./pcm.ts";

/**
 * Background ambience mixed under the assistant's voice. Both loops are generated, not recorded:
 * filtered noise, mains hum and sparse transients from a fixed seed, so every process produces
 * the same bytes and the repository carries no audio files.
 */

export type BackgroundId = "office" | "cafe";
export const BACKGROUND_IDS: readonly BackgroundId[] = ["office", "cafe"];

const LOOP_SECONDS = 8;
const CROSSFADE_SECONDS = 0.5;
/** Loop level at volume 1: quiet enough to sit under speech (about -30 dBFS RMS). */
const TARGET_RMS = 0.03;

/** Deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One-pole low-pass over white noise: a smooth rumble whose colour `alpha` sets. */
function lowNoise(length: number, rand: () => number, alpha: number): Float32Array {
  const out = new Float32Array(length);
  let y = 0;
  for (let i = 0; i < length; i++) {
    y += alpha * (rand() * 2 - 1 - y);
    out[i] = y;
  }
  return out;
}

/** A band of noise (difference of two low-passes). */
function bandNoise(length: number, rand: () => number, low: number, high: number): Float32Array {
  const a = lowNoise(length, rand, high);
  const b = lowNoise(length, rand, low);
  for (let i = 0; i < length; i++) a[i] = (a[i] as number) - (b[i] as number);
  return a;
}

function addClicks(out: Float32Array, rand: () => number, perSecond: number, pitch: number, decayMs: number): void {
  const rate = ENGINE_SAMPLE_RATE;
  const count = Math.round((out.length / rate) * perSecond);
  for (let c = 0; c < count; c++) {
    const start = Math.floor(rand() * out.length);
    const amplitude = 0.15 + rand() * 0.25;
    const length = Math.floor((decayMs / 1000) * rate * 4);
    for (let i = 0; i < length && start + i < out.length; i++) {
      const env = Math.exp(-i / ((decayMs / 1000) * rate));
      const tone = pitch > 0 ? Math.sin((2 * Math.PI * pitch * i) / rate) : rand() * 2 - 1;
      out[start + i] = (out[start + i] as number) + amplitude * env * tone;
    }
  }
}

function office(length: number): Float32Array {
  const rand = random(0x0ff1ce);
  const out = lowNoise(length, rand, 0.02);
  for (let i = 0; i < length; i++) {
    const t = i / ENGINE_SAMPLE_RATE;
    // Ventilation rumble plus a faint 50 Hz hum and its second harmonic.
    out[i] = (out[i] as number) * 4 + 0.05 * Math.sin(2 * Math.PI * 50 * t) + 0.02 * Math.sin(2 * Math.PI * 100 * t);
  }
  addClicks(out, rand, 3, 0, 4); // keyboard taps
  return out;
}

function cafe(length: number): Float32Array {
  const rand = random(0xcafe);
  const out = new Float32Array(length);
  // Several murmuring "voices": speech-band noise shaped by slow syllable-rate envelopes.
  for (let v = 0; v < 6; v++) {
    const band = bandNoise(length, rand, 0.03, 0.35);
    const rate = 2.5 + rand() * 3;
    const phase = rand() * Math.PI * 2;
    for (let i = 0; i < length; i++) {
      const t = i / ENGINE_SAMPLE_RATE;
      const envelope = Math.max(0, Math.sin(2 * Math.PI * rate * t + phase)) ** 2;
      out[i] = (out[i] as number) + (band[i] as number) * envelope;
    }
  }
  addClicks(out, rand, 0.6, 2600, 40); // cups and spoons
  return out;
}

function normalise(samples: Float32Array): Int16Array {
  let sum = 0;
  for (const s of samples) sum += s * s;
  const gain = TARGET_RMS / Math.sqrt(sum / samples.length || 1);
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = clampSample((samples[i] as number) * gain * 32767);
  return out;
}

/** Makes the loop seamless by fading its tail into its head. */
function crossfade(samples: Float32Array, fade: number): Float32Array {
  const length = samples.length - fade;
  const out = samples.slice(0, length);
  for (let i = 0; i < fade; i++) {
    const w = i / fade;
    out[i] = (samples[i] as number) * w + (samples[length + i] as number) * (1 - w);
  }
  return out;
}

const loops = new Map<BackgroundId, Int16Array>();

/** The generated loop for an ambience id, at the engine rate (built once per process). */
export function backgroundLoop(id: BackgroundId): Int16Array {
  let loop = loops.get(id);
  if (!loop) {
    const fade = Math.round(CROSSFADE_SECONDS * ENGINE_SAMPLE_RATE);
    const raw = (id === "office" ? office : cafe)(LOOP_SECONDS * ENGINE_SAMPLE_RATE + fade);
    loop = normalise(crossfade(raw, fade));
    loops.set(id, loop);
  }
  return loop;
}

/** Plays an ambience loop into outgoing frames at a volume from 0 to 1. */
export class BackgroundMixer {
  private readonly loop: Int16Array;
  private position = 0;

  constructor(
    id: BackgroundId,
    private readonly volume: number,
  ) {
    this.loop = backgroundLoop(id);
  }

  /** Adds the next stretch of ambience into `frame` in place. */
  mixInto(frame: Int16Array): void {
    for (let i = 0; i < frame.length; i++) {
      frame[i] = clampSample((frame[i] as number) + (this.loop[this.position] as number) * this.volume);
      this.position = (this.position + 1) % this.loop.length;
    }
  }
}
