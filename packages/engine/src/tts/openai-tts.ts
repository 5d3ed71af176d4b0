import type { TtsProviderConfig } from "@parley/contract";
import type { AudioChunk, SynthesizeOptions, TtsProvider } from "../providers/types.ts";
import { type CloudProviderOptions, vendorUrl } from "../stt/provider-config.ts";
import { vendorRequest } from "../stt/vendor-request.ts";
import { streamPcmBody } from "./pcm-stream.ts";

const PROVIDER = "OpenAI";
/** `response_format: "pcm"` is 24 kHz 16-bit little-endian mono without a header. */
const OPENAI_PCM_RATE = 24_000;

/** OpenAI speech through `POST /v1/audio/speech`, streamed as raw PCM. */
export class OpenAiTts implements TtsProvider {
  readonly id = "openai";
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
      url: vendorUrl("https://api.openai.com", "/v1/audio/speech", baseUrl).toString(),
      headers: { Authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: config.model,
        voice: config.voice,
        input: text,
        response_format: "pcm",
        speed: config.speed,
      }),
      net,
      signal: options.signal,
    });
    yield* streamPcmBody(PROVIDER, response, OPENAI_PCM_RATE, options.signal);
  }
}
