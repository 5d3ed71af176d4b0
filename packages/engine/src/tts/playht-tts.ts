import type { TtsProviderConfig } from "@parley/contract";
import type { AudioChunk, SynthesizeOptions, TtsProvider } from "../providers/types.ts";
import { type CloudProviderOptions, vendorUrl } from "../stt/provider-config.ts";
import { vendorRequest } from "../stt/vendor-request.ts";
import { streamPcmBody } from "./pcm-stream.ts";

const PROVIDER = "PlayHT";

/** PlayHT speech through `POST /api/v2/tts/stream` with `output_format: "raw"` (16-bit PCM). */
export class PlayHtTts implements TtsProvider {
  readonly id = "playht";
  readonly model: string;
  readonly voice: string;

  constructor(private readonly options: CloudProviderOptions<TtsProviderConfig> & { userId: string }) {
    this.model = options.config.model;
    this.voice = options.config.voice;
  }

  async *synthesize(text: string, options: SynthesizeOptions = {}): AsyncIterable<AudioChunk> {
    if (!text.trim()) return;
    const { config, apiKey, userId, net, baseUrl } = this.options;
    const response = await vendorRequest({
      provider: PROVIDER,
      url: vendorUrl("https://api.play.ht", "/api/v2/tts/stream", baseUrl).toString(),
      headers: { AUTHORIZATION: apiKey, "X-USER-ID": userId, "content-type": "application/json", accept: "*/*" },
      body: JSON.stringify({
        text,
        voice: config.voice,
        voice_engine: config.model,
        output_format: "raw",
        sample_rate: config.sampleRate,
        speed: config.speed,
        ...(config.language ? { language: config.language } : {}),
        ...(config.emotion ? { emotion: config.emotion } : {}),
      }),
      net,
      signal: options.signal,
    });
    yield* streamPcmBody(PROVIDER, response, config.sampleRate, options.signal);
  }
}
