import type { ToolSpec } from "../types.ts";

/** The Realtime API speaks 16-bit PCM at 24 kHz in both directions. */
export const REALTIME_RATE = 24_000;

/** How the vendor decides that the caller finished a turn (it answers on its own when it does). */
export type RealtimeTurnDetection =
  | {
      type: "server_vad";
      /** 0–1; higher needs louder speech. */
      threshold?: number;
      prefixPaddingMs?: number;
      silenceDurationMs?: number;
    }
  | { type: "semantic_vad"; eagerness?: "low" | "medium" | "high" | "auto" };

export interface RealtimeSessionSettings {
  /** The model, e.g. `gpt-realtime`; chosen at connect time (it is part of the URL). */
  model: string;
  instructions: string;
  /** A Realtime voice (`marin`, `cedar`, `alloy`, …); it cannot change once the model has spoken. */
  voice: string;
  turnDetection: RealtimeTurnDetection;
  /** The model that transcribes the caller's audio for the call log; null: no caller transcript. */
  inputTranscriptionModel: string | null;
  /** The caller's language (ISO 639-1) as a hint to the transcriber; omitted: detected. */
  language?: string;
  tools: ToolSpec[];
  /**
   * An Azure resource serving the model instead of the vendor (its endpoint, `https://{resource}.…`):
   * the resource's GA realtime path (see `realtimeUrl`) with the key in an `api-key` header; `model`
   * is then the deployment's name. The resource's older preview path (with `api-version` and
   * `deployment` parameters) speaks the beta session shape, which this client does not send.
   */
  azureEndpoint?: string;
}

/**
 * The GA `session.update`: a `realtime` session answering in audio, both directions pcm16 24 kHz,
 * the vendor's turn detection interrupting its own reply when the caller starts speaking
 * (`interrupt_response`) and answering when they stop (`create_response`).
 */
export function realtimeSessionUpdate(settings: RealtimeSessionSettings): Record<string, unknown> {
  const format = { type: "audio/pcm", rate: REALTIME_RATE };
  const transcription = settings.inputTranscriptionModel
    ? { model: settings.inputTranscriptionModel, ...(settings.language ? { language: settings.language } : {}) }
    : null;
  return {
    type: "session.update",
    session: {
      type: "realtime",
      instructions: settings.instructions,
      output_modalities: ["audio"],
      audio: {
        input: { format, transcription, turn_detection: turnDetection(settings.turnDetection) },
        output: { format, voice: settings.voice },
      },
      tools: settings.tools.map((tool) => ({
        type: "function",
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
      })),
      tool_choice: settings.tools.length > 0 ? "auto" : "none",
    },
  };
}

function turnDetection(detection: RealtimeTurnDetection): Record<string, unknown> {
  const common = { create_response: true, interrupt_response: true };
  if (detection.type === "semantic_vad") {
    return { type: "semantic_vad", eagerness: detection.eagerness ?? "auto", ...common };
  }
  return {
    type: "server_vad",
    ...(detection.threshold !== undefined ? { threshold: detection.threshold } : {}),
    ...(detection.prefixPaddingMs !== undefined ? { prefix_padding_ms: detection.prefixPaddingMs } : {}),
    ...(detection.silenceDurationMs !== undefined ? { silence_duration_ms: detection.silenceDurationMs } : {}),
    ...common,
  };
}

/**
 * The WebSocket URL of a Realtime conversation with `model`: on the vendor, on an Azure resource
 * (`azureEndpoint`, `model` naming the deployment), or on a test origin (`baseUrl`, which keeps the path).
 */
export function realtimeUrl(model: string, baseUrl?: string, azureEndpoint?: string): string {
  const resource = azureEndpoint ? new URL(azureEndpoint.trim()).origin.replace(/^http/, "ws") : null;
  // An integration's base URL may be http(s) and end in the REST API's `/v1`: the path below replaces it.
  const origin = (baseUrl ?? resource ?? "wss://api.openai.com")
    .replace(/^http/i, "ws")
    .replace(/\/+$/, "")
    .replace(/\/v1$/, "");
  const url = new URL(`${origin}${resource ? "/openai/v1/realtime" : "/v1/realtime"}`);
  url.searchParams.set("model", model);
  return url.toString();
}

/** The handshake's key header: a bearer token on the vendor, `api-key` on an Azure resource. */
export function realtimeAuthHeaders(apiKey: string, azureEndpoint?: string): Record<string, string> {
  return azureEndpoint ? { "api-key": apiKey } : { Authorization: `Bearer ${apiKey}` };
}
