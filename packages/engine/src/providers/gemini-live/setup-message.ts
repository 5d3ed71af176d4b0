import type { ToolSpec } from "../types.ts";
import type { GeminiLiveSettings, GeminiTurnDetection } from "./live-settings.ts";

/** The Live API takes 16 kHz PCM in (`audio/pcm;rate=16000`), the engine's own rate. */
export const LIVE_INPUT_RATE = 16_000;
/** It answers in 24 kHz PCM unless the part's MIME type says otherwise. */
export const LIVE_OUTPUT_RATE = 24_000;
export const LIVE_INPUT_MIME = `audio/pcm;rate=${LIVE_INPUT_RATE}`;

const LIVE_PATH = "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";

/**
 * The Live API's WebSocket endpoint; the key goes in the `key` query parameter, as the reference
 * shows. `baseUrl` (a proxy, a test double) may be http(s) and may end in the REST API's version
 * (`/v1beta`), as an integration's base URL does: the WebSocket path replaces it.
 */
export function liveUrl(apiKey: string, baseUrl?: string): string {
  const origin = (baseUrl ?? "wss://generativelanguage.googleapis.com")
    .replace(/^http/i, "ws")
    .replace(/\/+$/, "")
    .replace(/\/v1(alpha|beta)?$/, "");
  const url = new URL(`${origin}${LIVE_PATH}`);
  url.searchParams.set("key", apiKey);
  return url.toString();
}

/** `models/<id>`: the Live API names a model by its resource name. */
export function modelResource(model: string): string {
  return model.startsWith("models/") ? model : `models/${model}`;
}

/**
 * The first message of a Live session (`BidiGenerateContentSetup`): audio answers in the chosen
 * prebuilt voice, the prompt as `systemInstruction`, the functions as `functionDeclarations`, the
 * vendor's automatic activity detection (its barge-in interrupts the model), transcripts of both
 * sides, and session resumption so the session can move to a new connection (`goAway`, a prompt
 * change) with `handle`.
 */
export function liveSetup(settings: GeminiLiveSettings, handle?: string): { setup: Record<string, unknown> } {
  const speechConfig = {
    voiceConfig: { prebuiltVoiceConfig: { voiceName: settings.voice } },
    ...(settings.language ? { languageCode: settings.language } : {}),
  };
  return {
    setup: {
      model: modelResource(settings.model),
      generationConfig: { responseModalities: ["AUDIO"], speechConfig },
      systemInstruction: { parts: [{ text: settings.instructions }] },
      ...(settings.tools.length > 0 ? { tools: [{ functionDeclarations: settings.tools.map(declaration) }] } : {}),
      realtimeInputConfig: {
        automaticActivityDetection: activityDetection(settings.turnDetection),
        activityHandling: "START_OF_ACTIVITY_INTERRUPTS",
      },
      ...(settings.inputTranscription ? { inputAudioTranscription: {} } : {}),
      outputAudioTranscription: {},
      sessionResumption: handle ? { handle } : {},
    },
  };
}

/**
 * A function as the Live API declares it. `parametersJsonSchema` takes the tool's JSON Schema as
 * it is (the older `parameters` field takes only an OpenAPI subset and rejects keywords such as
 * `additionalProperties`).
 */
function declaration(tool: ToolSpec): Record<string, unknown> {
  return { name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters };
}

function activityDetection(detection: GeminiTurnDetection): Record<string, unknown> {
  const { startSensitivity, endSensitivity, prefixPaddingMs, silenceDurationMs } = detection;
  return {
    disabled: false,
    ...(startSensitivity ? { startOfSpeechSensitivity: `START_SENSITIVITY_${startSensitivity.toUpperCase()}` } : {}),
    ...(endSensitivity ? { endOfSpeechSensitivity: `END_SENSITIVITY_${endSensitivity.toUpperCase()}` } : {}),
    ...(prefixPaddingMs !== undefined ? { prefixPaddingMs } : {}),
    ...(silenceDurationMs !== undefined ? { silenceDurationMs } : {}),
  };
}

/** The sample rate a `audio/pcm;rate=N` MIME type names (the Live API's output default when it names none). */
export function pcmRate(mimeType: string | undefined): number {
  const match = /rate=(\d+)/.exec(mimeType ?? "");
  return match ? Number(match[1]) : LIVE_OUTPUT_RATE;
}
