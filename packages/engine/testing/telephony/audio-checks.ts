import { execFileSync } from "node:child_process";
import { rms } from "../../src/audio/pcm.ts";
import { resample } from "../../src/audio/resample.ts";
import { decodeWav } from "../../src/audio/wav.ts";

/** RMS (16-bit scale) of each 20 ms frame of 16 kHz PCM. */
export function frameRms(pcm: Int16Array, frameSamples = 320): number[] {
  const out: number[] = [];
  for (let i = 0; i + frameSamples <= pcm.length; i += frameSamples) out.push(rms(pcm.subarray(i, i + frameSamples)));
  return out;
}

/**
 * True when the audio holds at least `minMs` of frames louder than `threshold` RMS (about -40 dBFS
 * by default): speech, not silence or μ-law idle noise.
 */
export function isNonSilent(pcm: Int16Array, { minMs = 200, threshold = 300 } = {}): boolean {
  return loudMs(pcm, threshold) >= minMs;
}

/** Milliseconds of 20 ms frames above `threshold` RMS. */
export function loudMs(pcm: Int16Array, threshold = 300): number {
  return frameRms(pcm).filter((level) => level > threshold).length * 20;
}

/**
 * Caller speech for a phone test: `text` spoken by Debian's espeak-ng, as 16 kHz PCM. It is the
 * same synthesiser the e2e caller uses, so the assistant's offline recogniser can follow it.
 */
export function callerSpeech(text: string, { voice = "en-us", wordsPerMinute = 150 } = {}): Int16Array {
  const wav = execFileSync("espeak-ng", ["-v", voice, "-s", String(wordsPerMinute), "--stdout", text], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const audio = decodeWav(wav);
  const mono = audio.channels[0];
  if (!mono) throw new Error("espeak-ng produced no audio");
  return resample(mono, audio.sampleRate, 16_000);
}
