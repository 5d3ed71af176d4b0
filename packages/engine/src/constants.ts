/** Sample rate of all PCM audio inside the engine (16-bit mono). */
export const ENGINE_SAMPLE_RATE = 16_000;
/** Length of one audio frame the pipeline moves at a time, in milliseconds. */
export const FRAME_MS = 20;
/** Samples in one frame at the engine's rate. */
export const SAMPLES_PER_FRAME = (ENGINE_SAMPLE_RATE * FRAME_MS) / 1000;
