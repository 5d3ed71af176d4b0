/** Sample rate of all PCM audio inside the engine (16-bit mono). */
export const ENGINE_SAMPLE_RATE = 16_000;
/** Length of one audio frame the pipeline moves at a time, in milliseconds. */
export const FRAME_MS = 20;
/** Samples in one frame at the engine's rate. */
export const SAMPLES_PER_FRAME = (ENGINE_SAMPLE_RATE * FRAME_MS) / 1000;
/**
 * RMS (16-bit scale) from which a frame holds sound someone can hear: about -50 dBFS, below any
 * voice's onset and above the near-silence voices lead and trail with. The caller's wait runs from
 * the last such frame of their speech to the first such frame of the reply.
 */
export const AUDIBLE_RMS = 100;
