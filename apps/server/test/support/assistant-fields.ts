/** Assistant fields for calls that run on this machine alone, without provider keys. */

/**
 * Providers that need no key, so a call can start (a missing key is refused at POST /agents/{id}/call);
 * the model's URL answers nothing, which only matters to tests that talk to it (they set their own).
 */
export const KEYLESS_PROVIDERS = {
  llm_provider: "openai-compatible",
  llm_provider_config: { model: "scripted", base_url: "http://127.0.0.1:9/v1" },
  stt_provider: "local",
  stt_provider_config: {},
  tts_provider: "local",
  tts_provider_config: { model: "espeak-ng", voice: "en-us" },
};

/** An assistant's fields for a keyless call whose model is the scripted one at `modelUrl`. */
export const keylessAssistant = (modelUrl: string) => ({
  ...KEYLESS_PROVIDERS,
  llm_provider_config: { model: "scripted", base_url: modelUrl },
});

/**
 * An assistant that waits for the caller to speak first (no greeting), on keyless providers with
 * the scripted model at `modelUrl`; by default a URL that answers nothing, for calls in which
 * nobody speaks so the model is never asked.
 */
export const callerFirstAssistant = (name: string, modelUrl = "http://127.0.0.1:9/v1") => ({
  name,
  first_message: "",
  first_speaker: "user",
  ...keylessAssistant(modelUrl),
});
