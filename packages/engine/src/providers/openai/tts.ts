import type { TtsProviderConfig } from "@parley/contract";
import { HttpStreamingTts, type SpeechRequest } from "../shared/http-tts.ts";
import type { CloudProviderOptions } from "../shared/speech-options.ts";
import { vendorUrl } from "../shared/vendor-url.ts";

/** `response_format: "pcm"` is 24 kHz 16-bit little-endian mono without a header. */
const OPENAI_PCM_RATE = 24_000;

/** OpenAI speech through `POST /v1/audio/speech`, streamed as raw PCM. */
export class OpenAiTts extends HttpStreamingTts {
  readonly id = "openai";

  constructor(options: CloudProviderOptions<TtsProviderConfig>) {
    super("OpenAI", options);
  }

  protected request(text: string): SpeechRequest {
    const { config, apiKey, baseUrl } = this.options;
    return {
      url: vendorUrl("https://api.openai.com", "/v1/audio/speech", baseUrl).toString(),
      headers: { Authorization: `Bearer ${apiKey}` },
      json: { model: config.model, voice: config.voice, input: text, response_format: "pcm", speed: config.speed },
      sampleRate: OPENAI_PCM_RATE,
    };
  }
}
