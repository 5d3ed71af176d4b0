/** Live provider catalog: models, voices, connection tests, voice clones. */
export * from "./catalog/index.ts";
export { ENGINE_SAMPLE_RATE, FRAME_MS, SAMPLES_PER_FRAME } from "./constants.ts";
/** The provider interfaces (NetworkDeps, WebSocketLike, Stt/Llm/Tts providers, chat and tool types). */
export type * from "./providers/types.ts";
