/**
 * Telephone audio is 8 kHz, the engine's is 16 kHz. Both directions are converted per 20 ms frame
 * with a little state carried between frames, so frame edges do not click: 16 → 8 kHz through a
 * [1 2 1]/4 low-pass before dropping every other sample, 8 → 16 kHz by linear interpolation.
 */

export class Downsampler {
  private previous = 0;

  /** 16 kHz in, 8 kHz out (input length even). */
  process(pcm: Int16Array): Int16Array {
    const out = new Int16Array(pcm.length >> 1);
    for (let i = 0; i < out.length; i += 1) {
      const before = i === 0 ? this.previous : (pcm[2 * i - 1] ?? 0);
      const centre = pcm[2 * i] ?? 0;
      const after = pcm[2 * i + 1] ?? 0;
      out[i] = (before + 2 * centre + after) >> 2;
    }
    this.previous = pcm[pcm.length - 1] ?? 0;
    return out;
  }
}

export class Upsampler {
  private previous = 0;

  /** 8 kHz in, 16 kHz out. */
  process(pcm: Int16Array): Int16Array {
    const out = new Int16Array(pcm.length * 2);
    let last = this.previous;
    for (let i = 0; i < pcm.length; i += 1) {
      const sample = pcm[i] ?? 0;
      out[2 * i] = (last + sample) >> 1;
      out[2 * i + 1] = sample;
      last = sample;
    }
    this.previous = last;
    return out;
  }
}
