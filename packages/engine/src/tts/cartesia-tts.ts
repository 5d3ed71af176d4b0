import type { TtsProviderConfig } from "@parley/contract";
import type { AudioChunk, SynthesizeOptions, TtsProvider } from "../providers/types.ts";
import { type CloudProviderOptions, vendorUrl } from "../stt/provider-config.ts";
import { vendorRequest } from "../stt/vendor-request.ts";
import { streamPcmBody } from "./pcm-stream.ts";

const PROVIDER = "Cartesia";
/** The API version the request shape below follows. */
export const CARTESIA_VERSION = "2025-04-16";

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
      body: JSON.stringify({
        model_id: config.model,
        transcript: text,
        voice: { mode: "id", id: config.voice },
        output_format: { container: "raw", encoding: "pcm_s16le", sample_rate: config.sampleRate },
        ...(config.language ? { language: config.language } : {}),
      }),
      net,
      signal: options.signal,
    });
    yield* streamPcmBody(PROVIDER, response, config.sampleRate, options.signal);
  }
}
