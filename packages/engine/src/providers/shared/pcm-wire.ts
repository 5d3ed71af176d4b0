/** PCM helpers the speech-to-text adapters share: wire encodings and streaming rate conversion. */

/** 16-bit samples as little-endian bytes (the byte order every vendor expects). */
export function pcmBytes(pcm: Int16Array): Uint8Array {
  const bytes = new Uint8Array(pcm.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < pcm.length; i++) view.setInt16(i * 2, pcm[i] ?? 0, true);
  return bytes;
}

/** Base64 of the little-endian bytes of `pcm`. */
export function pcmBase64(pcm: Int16Array): string {
  return Buffer.from(pcmBytes(pcm)).toString("base64");
}

/**
 * Streaming linear-interpolation resampler. It keeps the last input sample and the fractional read
 * position between calls, so consecutive frames join without clicks. Linear interpolation is exact
 * enough for speech recognisers when going up (16 → 24 kHz); going down it is a plain decimator.
 */
export class LinearResampler {
  private readonly step: number;
  private position = 0;
  private previous: number | null = null;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
  ) {
    this.step = fromRate / toRate;
  }

  push(input: Int16Array): Int16Array {
    if (this.fromRate === this.toRate || input.length === 0) return input;
    // Sample index -1 is the last sample of the previous call, so interpolation spans the seam.
    const at = (i: number) => (i < 0 ? (this.previous ?? input[0] ?? 0) : (input[i] ?? 0));
    const out: number[] = [];
    let pos = this.position;
    while (pos <= input.length - 1) {
      const base = Math.floor(pos);
      const frac = pos - base;
      const value = at(base) + (at(base + 1) - at(base)) * frac;
      out.push(Math.max(-32768, Math.min(32767, Math.round(value))));
      pos += this.step;
    }
    this.position = pos - input.length;
    this.previous = input[input.length - 1] ?? this.previous;
    return Int16Array.from(out);
  }
}
