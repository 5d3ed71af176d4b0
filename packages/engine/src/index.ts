/** Live provider catalog: models, voices, connection tests, voice clones. */

export type { BackgroundId } from "./audio/background.ts";
export { BACKGROUND_IDS, BackgroundMixer, backgroundLoop } from "./audio/background.ts";
export { ToneDetector, toneRatio } from "./audio/goertzel.ts";
export { mulawDecode, mulawEncode } from "./audio/mulaw.ts";
export {
  bytesToPcm,
  clampSample,
  concatPcm,
  floatToInt16,
  int16ToFloat,
  levelDb,
  mixInto,
  pcmToBytes,
  rms,
} from "./audio/pcm.ts";
export { Reframer } from "./audio/reframer.ts";
export { Resampler, resample } from "./audio/resample.ts";
export type { WavAudio } from "./audio/wav.ts";
export { decodeWav, encodeWav } from "./audio/wav.ts";
export * from "./catalog/index.ts";
export { ENGINE_SAMPLE_RATE, FRAME_MS, SAMPLES_PER_FRAME } from "./constants.ts";
export { FrameProcessor, FunctionProcessor, pipeline } from "./frames/frame-processor.ts";
export type { DataFrame, Frame, FrameOf, FrameType, SystemFrame } from "./frames/frames.ts";
export { isSystemFrame } from "./frames/frames.ts";
export { createLlmProvider } from "./llm/index.ts";
/** The key-free local voice and recogniser (provider id "local"). */
export { ESPEAK_SAMPLE_RATE, EspeakTts } from "./local/espeak-tts.ts";
export { PocketsphinxStt, pocketsphinxAvailable } from "./local/pocketsphinx-stt.ts";
export { FallbackLlm, FallbackStt, FallbackTts } from "./providers/fallback.ts";
export { ProviderError } from "./providers/provider-error.ts";
/** The provider interfaces (NetworkDeps, WebSocketLike, Stt/Llm/Tts providers, chat and tool types). */
export type * from "./providers/types.ts";
/** The call session: one live call from caller audio in to paced assistant audio out. */
export type { CallSessionDeps } from "./session/call-session.ts";
export { createCallSession, createCallSessionWith } from "./session/call-session.ts";
export { RECORDING_BYTES_PER_SECOND } from "./session/recorder.ts";
export { systemClock } from "./session/system-clock.ts";
export type * from "./session/types.ts";
export { createSttProvider } from "./stt/index.ts";
export { luhnValid, REDACTED_CARD, redactCardNumbers } from "./text/pci-redaction.ts";
export { SentenceSplitter } from "./text/sentence-splitter.ts";
export { createTtsProvider } from "./tts/index.ts";
export { loadVad } from "./vad/load-vad.ts";
export { SileroVad } from "./vad/silero-vad.ts";
export type { TurnSettings } from "./vad/turn-detector.ts";
export { TurnDetector, turnSettings } from "./vad/turn-detector.ts";
export type { VoiceActivityModel } from "./vad/voice-activity.ts";
export { EnergyVad } from "./vad/voice-activity.ts";
export { WebRtcVad } from "./vad/webrtc-vad.ts";
