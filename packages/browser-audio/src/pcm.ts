/** 16-bit PCM helpers for the browser side of a call (the server speaks 16 kHz mono s16le). */

export const CALL_SAMPLE_RATE = 16_000;

/** Float samples in [-1, 1] to 16-bit integers, clipping. */
export function floatToInt16(input: Float32Array): Int16Array {
  const out = new Int16Array(input.length);
  for (let i = 0; i < input.length; i++) {
    const s = Math.max(-1, Math.min(1, input[i] ?? 0));
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out;
}

export function int16ToFloat(input: Int16Array): Float32Array<ArrayBuffer> {
  const out = new Float32Array(input.length);
  for (let i = 0; i < input.length; i++) out[i] = (input[i] ?? 0) / 0x8000;
  return out;
}

/** Root-mean-square level in [0, 1]. */
export function rms(samples: Float32Array | Int16Array): number {
  if (samples.length === 0) return 0;
  const scale = samples instanceof Int16Array ? 0x8000 : 1;
  let sum = 0;
  for (const s of samples) sum += (s / scale) ** 2;
  return Math.sqrt(sum / samples.length);
}

/**
 * Resamples a stream of float chunks to 16 kHz, averaging each output sample's source span
 * (a box low-pass that keeps speech clean). Only used when the browser cannot run the audio
 * graph at 16 kHz itself; Chromium resamples natively.
 */
export function createDownsampler(inputRate: number) {
  const ratio = inputRate / CALL_SAMPLE_RATE;
  let carry = new Float32Array(0);
  let position = 0;
  return (chunk: Float32Array): Float32Array => {
    const input = new Float32Array(carry.length + chunk.length);
    input.set(carry);
    input.set(chunk, carry.length);
    const out: number[] = [];
    while (position + ratio <= input.length) {
      const start = Math.floor(position);
      const end = Math.min(input.length, Math.floor(position + ratio));
      let sum = 0;
      for (let i = start; i < end; i++) sum += input[i] ?? 0;
      out.push(end > start ? sum / (end - start) : 0);
      position += ratio;
    }
    const consumed = Math.floor(position);
    carry = input.slice(consumed);
    position -= consumed;
    return Float32Array.from(out);
  };
}
