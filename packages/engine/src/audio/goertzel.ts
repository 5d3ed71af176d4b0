/** Single-frequency energy (Goertzel) and a sustained-tone detector built on it. */

/**
 * How much of the frame's energy sits at `frequency`, from 0 (none) to about 1 (a pure tone
 * centred on that frequency).
 */
export function toneRatio(pcm: Int16Array, frequency: number, sampleRate: number): number {
  const n = pcm.length;
  if (n === 0) return 0;
  const coeff = 2 * Math.cos((2 * Math.PI * frequency) / sampleRate);
  let s1 = 0;
  let s2 = 0;
  let energy = 0;
  for (let i = 0; i < n; i++) {
    const x = pcm[i] as number;
    energy += x * x;
    const s0 = x + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  if (energy === 0) return 0;
  const power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
  return power / ((n / 2) * energy);
}

export interface ToneDetectorOptions {
  sampleRate: number;
  /** Frequencies checked each frame; the best match counts. */
  frequencies: number[];
  /** How long the tone must last before it counts. */
  minDurationMs: number;
  /** Share of frame energy that must be at the tone. */
  minRatio?: number;
  /** Frames quieter than this (dBFS) never count. */
  minLevelDb?: number;
}

/** Reports a tone (an answering machine's beep, say) once it has lasted long enough, and its end. */
export class ToneDetector {
  private heldMs = 0;
  private active = false;

  constructor(private readonly options: ToneDetectorOptions) {}

  /** Feeds one frame; returns "start" when the tone has just been confirmed, "end" when it stops. */
  push(frame: Int16Array): "start" | "end" | null {
    const frameMs = (frame.length / this.options.sampleRate) * 1000;
    if (this.isTone(frame)) {
      this.heldMs += frameMs;
      if (!this.active && this.heldMs >= this.options.minDurationMs) {
        this.active = true;
        return "start";
      }
      return null;
    }
    this.heldMs = 0;
    if (this.active) {
      this.active = false;
      return "end";
    }
    return null;
  }

  private isTone(frame: Int16Array): boolean {
    const { sampleRate, frequencies, minRatio = 0.6, minLevelDb = -45 } = this.options;
    let energy = 0;
    for (let i = 0; i < frame.length; i++) energy += (frame[i] as number) ** 2;
    const level = 20 * Math.log10(Math.sqrt(energy / Math.max(1, frame.length)) / 32768 + 1e-12);
    if (level < minLevelDb) return false;
    return frequencies.some((f) => toneRatio(frame, f, sampleRate) >= minRatio);
  }
}
