/** WebRTC calls: an Opus audio leg over werift, and the calling adapters of messaging platforms. */
export { type AudioLegOptions, WebrtcAudioLeg } from "./audio-leg.ts";
export { loadCalling } from "./load-calling.ts";
export { OPUS_FRAME_SAMPLES, OPUS_PCM_RATE, OpusCodec } from "./opus-codec.ts";
export * from "./types.ts";
