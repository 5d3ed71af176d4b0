import type { TtsProviderConfig } from "@parley/contract";
import type { AudioChunk, SynthesizeOptions, TtsProvider } from "../providers/types.ts";
import { type CloudProviderOptions, vendorUrl } from "../stt/provider-config.ts";
import { vendorRequest } from "../stt/vendor-request.ts";
import { streamPcmBody } from "./pcm-stream.ts";

const PROVIDER = "Rime";

/** Rime speech through `POST https://users.rime.ai/v1/rime-tts` with `Accept: audio/pcm`. */
export class RimeTts implements TtsProvider {
  readonly id = "rime-ai";
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
      url: vendorUrl("https://users.rime.ai", "/v1/rime-tts", baseUrl).toString(),
      headers: { Authorization: `Bearer ${apiKey}`, accept: "audio/pcm", "content-type": "application/json" },
      body: JSON.stringify({
        speaker: config.voice,
        text,
        modelId: config.model,
        samplingRate: config.sampleRate,
        // Rime's speedAlpha is a duration factor: above 1 is slower, so it is the inverse of speed.
        speedAlpha: Number((1 / config.speed).toFixed(3)),
        ...(config.language ? { lang: config.language } : {}),
      }),
      net,
      signal: options.signal,
    });
    yield* streamPcmBody(PROVIDER, response, config.sampleRate, options.signal);
  }
}
