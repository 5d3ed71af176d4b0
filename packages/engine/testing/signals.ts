import { clampSample } from "../src/audio/pcm.ts";

/** A sine tone as 16-bit PCM. */
export function sine(frequency: number, ms: number, sampleRate = 16_000, amplitude = 0.5): Int16Array {
  const n = Math.round((ms / 1000) * sampleRate);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++)
    out[i] = clampSample(amplitude * 32767 * Math.sin((2 * Math.PI * frequency * i) / sampleRate));
  return out;
}

/** Seeded white noise as 16-bit PCM. */
export function noise(ms: number, sampleRate = 16_000, amplitude = 0.3, seed = 1): Int16Array {
  const n = Math.round((ms / 1000) * sampleRate);
  const out = new Int16Array(n);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = clampSample(amplitude * 32767 * ((state >>> 0) / 4294967296 - 0.5) * 2);
  }
  return out;
}

/** Silence as 16-bit PCM. */
export function silence(ms: number, sampleRate = 16_000): Int16Array {
  return new Int16Array(Math.round((ms / 1000) * sampleRate));
}
