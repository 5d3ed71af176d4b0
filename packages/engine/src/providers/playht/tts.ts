import type { TtsProviderConfig } from "@parley/contract";
import { HttpStreamingTts, type SpeechRequest } from "../shared/http-tts.ts";
import type { CloudProviderOptions } from "../shared/speech-options.ts";
import { vendorUrl } from "../shared/vendor-url.ts";

/** PlayHT speech through `POST /api/v2/tts/stream` with `output_format: "raw"` (16-bit PCM). */
export class PlayHtTts extends HttpStreamingTts {
  readonly id = "playht";

  constructor(options: CloudProviderOptions<TtsProviderConfig> & { userId: string }) {
    super("PlayHT", options);
    this.userId = options.userId;
  }

  private readonly userId: string;

  protected request(text: string): SpeechRequest {
    const { config, apiKey, baseUrl } = this.options;
    return {
      url: vendorUrl("https://api.play.ht", "/api/v2/tts/stream", baseUrl).toString(),
      headers: { AUTHORIZATION: apiKey, "X-USER-ID": this.userId, accept: "*/*" },
      json: {
        text,
        voice: config.voice,
        voice_engine: config.model,
        output_format: "raw",
        sample_rate: config.sampleRate,
        speed: config.speed,
        ...(config.language ? { language: config.language } : {}),
        ...(config.emotion ? { emotion: config.emotion } : {}),
      },
      sampleRate: config.sampleRate,
    };
  }
}
