import { encodeWav } from "../../audio/wav.ts";
import { UtteranceStt } from "../shared/stt-stages.ts";
import { vendorRequest } from "../shared/vendor-request.ts";
import { vendorUrl } from "../shared/vendor-url.ts";
import type { StageConfig } from "../vendor-adapters.ts";

const PROVIDER = "Hamsa";
export type HamsaSttConfigValues = StageConfig<"stt", "hamsa">;

/**
 * Hamsa's Arabic-first recogniser through its synchronous realtime endpoint,
 * `POST /v1/realtime/stt`, one request per utterance: base64 WAV in, `{text}` out. Hamsa's WebSocket
 * also answers one whole clip per request, so it would add a socket without adding partials.
 */
export class HamsaStt extends UtteranceStt<HamsaSttConfigValues> {
  readonly id = "hamsa";
  readonly provider = PROVIDER;

  async transcribe(pcm: Int16Array, signal: AbortSignal): Promise<{ text: string; language?: string }> {
    const language = hamsaLanguage(this.options.config);
    const response = await vendorRequest({
      provider: PROVIDER,
      url: vendorUrl("https://api.tryhamsa.com", "/v1/realtime/stt", this.options.baseUrl).toString(),
      headers: { Authorization: `Token ${this.options.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        audioBase64: encodeWav({ sampleRate: 16_000, channels: [pcm] }).toString("base64"),
        language,
        // The engine's own VAD already ended the utterance.
        isEosEnabled: false,
      }),
      net: this.options.net,
      signal,
    });
    const body = (await response.json()) as { text?: unknown; data?: { text?: unknown } };
    const text = typeof body.text === "string" ? body.text : body.data?.text;
    return { text: typeof text === "string" ? text : "", language };
  }
}

/** Hamsa knows Arabic ("ar", its default) and English ("en"). */
function hamsaLanguage(config: HamsaSttConfigValues): "ar" | "en" {
  return !config.detect_language && config.language.toLowerCase().startsWith("en") ? "en" : "ar";
}
