import type { TtsProviderConfig } from "@parley/contract";
import { httpTts } from "../shared/http-tts.ts";
import { vendorUrl } from "../shared/vendor-url.ts";

/** The API version the request shape below follows. */
export const CARTESIA_VERSION = "2025-04-16";

/**
 * The /tts/bytes body. Speed and emotion moved between model families: Sonic 3 and later read
 * `generation_config` (speed as a 0.6–1.5 factor), earlier models the voice's experimental controls
 * (speed from -1 to 1 around 0). They are only sent when the assistant changed them.
 */
export function cartesiaRequestBody(config: TtsProviderConfig, text: string): Record<string, unknown> {
  const tuned = config.speed !== 1 || Boolean(config.emotion);
  const sonic3 = /^sonic-(3|latest)/.test(config.model);
  const emotion = config.emotion ? { emotion: sonic3 ? config.emotion : [config.emotion] } : {};
  const voiceControls =
    tuned && !sonic3 ? { __experimental_controls: { speed: clamp(config.speed - 1, -1, 1), ...emotion } } : {};
  return {
    model_id: config.model,
    transcript: text,
    voice: { mode: "id", id: config.voice, ...voiceControls },
    output_format: { container: "raw", encoding: "pcm_s16le", sample_rate: config.sampleRate },
    ...(config.language ? { language: config.language } : {}),
    ...(tuned && sonic3 ? { generation_config: { speed: clamp(config.speed, 0.6, 1.5), ...emotion } } : {}),
  };
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Cartesia Sonic through `POST /tts/bytes`, streamed as raw pcm_s16le. */
export const CartesiaTts = httpTts("cartesia", "Cartesia", (text, { config, apiKey, baseUrl }) => ({
  url: vendorUrl("https://api.cartesia.ai", "/tts/bytes", baseUrl).toString(),
  headers: { Authorization: `Bearer ${apiKey}`, "Cartesia-Version": CARTESIA_VERSION },
  json: cartesiaRequestBody(config, text),
  sampleRate: config.sampleRate,
}));
