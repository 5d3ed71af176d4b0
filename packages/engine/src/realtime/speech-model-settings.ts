import type { GeminiLiveSettings } from "../providers/gemini-live/live-settings.ts";
import type { RealtimeSessionSettings } from "../providers/openai-realtime/session-update.ts";

/** The Realtime API's own settings (model, voice, turn detection, caller transcription). */
export type OpenAiRealtimeModelSettings = { provider: "openai-realtime" } & Omit<
  RealtimeSessionSettings,
  "instructions" | "tools"
>;

/** The Live API's own settings (model, voice, language, activity detection, caller transcription). */
export type GeminiLiveModelSettings = { provider: "gemini-live" } & Omit<GeminiLiveSettings, "instructions" | "tools">;

/**
 * The speech-to-speech model a realtime call runs on, beside the assistant's prompt and first
 * message (which come from the call's settings): one variant per vendor, told apart by `provider`.
 */
export type RealtimeModelSettings = OpenAiRealtimeModelSettings | GeminiLiveModelSettings;
