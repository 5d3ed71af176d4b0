import { rms } from "../../audio/pcm.ts";
import { ENGINE_SAMPLE_RATE } from "../../constants.ts";

const FRAME_SAMPLES = ENGINE_SAMPLE_RATE / 50;
/** Kept either side of the loud frames: the soft start and end of a word are below the bar. */
const MARGIN_SAMPLES = Math.round(ENGINE_SAMPLE_RATE * 0.3);
/** The engine's bar for an audible frame (about -50 dBFS). */
const AUDIBLE_RMS = 100;
/** A frame is speech when it is this many times louder than the quietest tenth of the audio. */
const ABOVE_FLOOR = 4;

/**
 * The part of an utterance's audio that holds speech: from 300 ms before its first loud frame to
 * 300 ms after its last. The recogniser gets all the caller's audio since its last utterance —
 * the quiet while the assistant spoke included — and its decoding time grows with the audio's
 * length, not with the words: cutting the quiet off makes a turn several times cheaper. "Loud" is
 * relative to the recording's own floor, so a noisy phone line is trimmed at its noise, not at a
 * fixed level; audio with no frame above the floor is returned whole (the recogniser decides).
 */
export function speechSpan(pcm: Int16Array): Int16Array {
  const frames = Math.floor(pcm.length / FRAME_SAMPLES);
  if (frames < 3) return pcm;
  const levels = new Float64Array(frames);
  for (let i = 0; i < frames; i += 1) levels[i] = rms(pcm.subarray(i * FRAME_SAMPLES, (i + 1) * FRAME_SAMPLES));
  const floor = [...levels].sort((a, b) => a - b)[Math.floor(frames / 10)] ?? 0;
  const bar = Math.max(AUDIBLE_RMS, floor * ABOVE_FLOOR);
  let first = -1;
  let last = -1;
  for (let i = 0; i < frames; i += 1) {
    if ((levels[i] ?? 0) < bar) continue;
    if (first < 0) first = i;
    last = i;
  }
  if (first < 0) return pcm;
  const from = Math.max(0, first * FRAME_SAMPLES - MARGIN_SAMPLES);
  const to = Math.min(pcm.length, (last + 1) * FRAME_SAMPLES + MARGIN_SAMPLES);
  return pcm.subarray(from, to);
}
