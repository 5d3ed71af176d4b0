import type { TtsProviderConfig } from "@parley/contract";
import type { AudioChunk, SynthesizeOptions, TtsProvider } from "../providers/types.ts";
import { type CloudProviderOptions, vendorUrl } from "../stt/provider-config.ts";
import { vendorRequest } from "../stt/vendor-request.ts";
import { streamPcmBody } from "./pcm-stream.ts";

const PROVIDER = "Cartesia";
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
export class CartesiaTts implements TtsProvider {
  readonly id = "cartesia";
  readonly model: string;
  readonly voice: string;

  constructor(private readonly options: CloudProviderOptions<TtsProviderConfig>) {
    this.model = options.config.model;
    this.voice = options.config.voice;
  }

  async *synthesize(text: string, options: SynthesizeOptions = {}): AsyncIterable<AudioChunk> {
    if (!text.trim()) return;
    const { config, apiKey, net, baseUrl } = this.options;
    const response = await vendorRequest({
      provider: PROVIDER,
      url: vendorUrl("https://api.cartesia.ai", "/tts/bytes", baseUrl).toString(),
      headers: {
        Authorization: `Bearer ${apiKey}`,
        "Cartesia-Version": CARTESIA_VERSION,
        "content-type": "application/json",
      },
      body: JSON.stringify(cartesiaRequestBody(config, text)),
      net,
      signal: options.signal,
    });
    yield* streamPcmBody(PROVIDER, response, config.sampleRate, options.signal);
  }
}
