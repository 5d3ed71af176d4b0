import { apiCall } from "./api.ts";
import type { RunningServer } from "./server.ts";

/**
 * The providers of an assistant that runs on this machine alone: a local OpenAI-compatible model
 * double at `modelUrl`, the offline recogniser and the offline (eSpeak) voice.
 */
export function offlineProviders(modelUrl: string, model = "scripted") {
  return {
    llm_provider: "openai-compatible",
    llm_provider_config: { model, base_url: modelUrl },
    stt_provider: "local",
    stt_provider_config: {},
    tts_provider: "local",
    tts_provider_config: { model: "espeak-ng", voice: "en-us", speed: 1, sampleRate: 16000 },
  };
}

/** Creates an assistant through the API and returns its id. */
export async function createAssistant(
  server: RunningServer,
  token: string,
  fields: Record<string, unknown>,
): Promise<string> {
  return (await apiCall<{ id: string }>(server.url, token, "POST", "/agents", fields)).id;
}

/**
 * Creates an assistant that speaks first and runs on the offline providers with the chat model at
 * `modelUrl` (named `model`), with `fields` on top; returns its id.
 */
export async function createOfflineAssistant(
  server: RunningServer,
  token: string,
  modelUrl: string,
  fields: Record<string, unknown>,
  model?: string,
): Promise<string> {
  return createAssistant(server, token, {
    first_speaker: "assistant",
    ...offlineProviders(modelUrl, model),
    ...fields,
  });
}
