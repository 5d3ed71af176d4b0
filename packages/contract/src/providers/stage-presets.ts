/**
 * Values most descriptors share, spread into their stages. A stage served by a hosted API needs
 * the vendor's key and the internet (a language model no base URL); descriptors spread these last
 * and override what differs (voice clones).
 */
export const HOSTED_LLM = { needsKey: true, needsBaseUrl: false, offline: false } as const;
export const HOSTED_STT = { needsKey: true, offline: false } as const;
export const HOSTED_TTS = { needsKey: true, offline: false, supportsClones: false } as const;

/** Normal speed at the pipeline's sample rate: where every voice starts (and the TTS config's defaults). */
export const PIPELINE_AUDIO = { speed: 1, sampleRate: 16000 } as const;
