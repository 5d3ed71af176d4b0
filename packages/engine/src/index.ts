export { ENGINE_SAMPLE_RATE, FRAME_MS, SAMPLES_PER_FRAME } from "./constants.ts";
