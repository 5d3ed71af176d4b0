/** The engine's public surface: the call session, the provider factory and catalog, and audio helpers. */

export { concatPcm } from "./audio/pcm.ts";
export { resample } from "./audio/resample.ts";
export { encodeWav, WAV_HEADER_BYTES, wavHeader } from "./audio/wav.ts";
export { ENGINE_SAMPLE_RATE, SAMPLES_PER_FRAME } from "./constants.ts";
export {
  type ConnectionResult,
  createVoiceClone,
  deleteVoiceClone,
  hasModelListing,
  type ListModelsOptions,
  listModels,
  listVoices,
  testConnection,
} from "./providers/catalog.ts";
export { createEmbedder } from "./providers/create-embedder.ts";
export { createProvider } from "./providers/create-provider.ts";
export { FallbackLlm, FallbackStt, FallbackTts } from "./providers/fallback.ts";
export { faultKind, faultMessage, redactSecrets } from "./providers/fault-kind.ts";
export type { GeminiTurnDetection } from "./providers/gemini-live/live-settings.ts";
export { loadTelephony } from "./providers/load-telephony.ts";
/** The key-free local voice, used directly by the benchmark. */
export { ESPEAK_SAMPLE_RATE, EspeakTts } from "./providers/local/tts.ts";
export type { RealtimeTurnDetection } from "./providers/openai-realtime/session-update.ts";
export type { RealtimeUsage } from "./providers/openai-realtime/usage.ts";
export { MissingCredentialError, ProviderError } from "./providers/provider-error.ts";
export { requireField } from "./providers/shared/credentials.ts";
/** The provider interfaces (NetworkDeps, WebSocketLike, Stt/Llm/Tts providers, chat and tool types). */
export type * from "./providers/types.ts";
export type {
  Credentials,
  Embedder,
  EmbedderOptions,
  ProviderOptions,
  Stage,
  VoiceCloneInput,
  VoiceOption,
} from "./providers/vendor-adapters.ts";
/** Speech-to-speech calls (issue 32): a call run on a realtime model instead of the pipeline. */
export {
  type GeminiLiveModelSettings,
  type OpenAiRealtimeModelSettings,
  RealtimeCallSession,
  type RealtimeCallSessionOptions,
  type RealtimeModelSettings,
} from "./realtime/realtime-call-session.ts";
/** The call session: one live call from caller audio in to paced assistant audio out. */
export { createCallSession } from "./session/call-session.ts";
export { type CallSettings, callSettingsOf, type PiiRedaction } from "./session/call-settings.ts";
export type { EndOfTurnRule } from "./session/end-of-turn.ts";
export { endedInFailure, RECOVERY_GAP_MS, reportedEndReason } from "./session/fault-policy.ts";
export { RECORDING_BYTES_PER_SECOND, type RecordingChannel, type RecordingSink } from "./session/recorder.ts";
export type * from "./session/types.ts";
/** Test suites' simulated caller and the line its audio crosses (issue 29). */
export { createLine, createLineMeter } from "./simulation/line.ts";
export {
  ASSISTANT_DONE_SILENCE_MS,
  createSimulatedCaller,
  REPLY_TIMEOUT_MS,
  SILENT_TURN_TIMEOUT_MS,
} from "./simulation/simulated-caller.ts";
export type * from "./simulation/types.ts";
export type * from "./telephony/types.ts";
export { TelephonyError } from "./telephony/types.ts";
export { detectPii, PII_KINDS, type PiiKind, type PiiSpan } from "./text/pii-detector.ts";
export { PiiVault } from "./text/pii-vault.ts";
/** The caller's voice activity detector (Silero, else WebRTC VAD, else a level detector); loading it once warms it for every call. */
export { loadVad } from "./vad/load-vad.ts";
export type { VoiceActivityModel } from "./vad/voice-activity.ts";
export type * from "./workflow/types.ts";
/** Workflows: the graph an assistant's calls (and the text test) run turn by turn. */
export { type AdvanceOptions, WorkflowRunner, type WorkflowRunnerOptions } from "./workflow/workflow-runner.ts";
