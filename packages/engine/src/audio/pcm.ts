/** Small helpers over 16-bit PCM. */

/** Root mean square of the samples, on the 16-bit scale (0–32768). */
export function rms(pcm: Int16Array): number {
  if (pcm.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < pcm.length; i++) {
    const s = pcm[i] as number;
    sum += s * s;
  }
  return Math.sqrt(sum / pcm.length);
}

/** Level in dBFS (0 is full scale; silence is -Infinity, floored at -100). */
export function levelDb(pcm: Int16Array): number {
  const r = rms(pcm);
  return r <= 0 ? -100 : Math.max(-100, 20 * Math.log10(r / 32768));
}

/** Joins PCM chunks into one array. */
export function concatPcm(chunks: readonly Int16Array[]): Int16Array {
  let length = 0;
  for (const c of chunks) length += c.length;
  const out = new Int16Array(length);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/** Rounds and clamps a float sample (16-bit scale) into the int16 range. */
export function clampSample(value: number): number {
  const v = Math.round(value);
  return Math.min(32767, Math.max(-32768, v));
}

/** Converts float samples in [-1, 1] to 16-bit PCM. */
export function floatToInt16(samples: Float32Array | readonly number[]): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = clampSample((samples[i] as number) * 32767);
  return out;
}

/** Converts 16-bit PCM to float samples in [-1, 1). */
export function int16ToFloat(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = (pcm[i] as number) / 32768;
  return out;
}

/** Adds `src * gain` into `dst` in place, saturating. */
export function mixInto(dst: Int16Array, src: Int16Array, gain = 1): void {
  const n = Math.min(dst.length, src.length);
  for (let i = 0; i < n; i++) dst[i] = clampSample((dst[i] as number) + (src[i] as number) * gain);
}

/** Views raw little-endian 16-bit bytes (e.g. a WebSocket message) as samples without copying when aligned. */
export function bytesToPcm(bytes: Uint8Array): Int16Array {
  if (bytes.byteOffset % 2 === 0) return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1);
  return new Int16Array(bytes.slice().buffer, 0, bytes.byteLength >> 1);
}

/** The bytes of PCM samples (little-endian, as every platform Node runs on). */
export function pcmToBytes(pcm: Int16Array): Buffer {
  return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
}
