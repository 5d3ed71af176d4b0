import type { TtsProviderConfig } from "@parley/contract";
import type { AudioChunk, SynthesizeOptions, TtsProvider } from "../providers/types.ts";
import { type CloudProviderOptions, vendorUrl } from "../stt/provider-config.ts";
import { vendorRequest } from "../stt/vendor-request.ts";
import { streamPcmBody } from "./pcm-stream.ts";

const PROVIDER = "Deepgram";

/** Deepgram Aura speech through `POST /v1/speak`, streamed as headerless linear16. */
export class DeepgramTts implements TtsProvider {
  readonly id = "deepgram";
  readonly model: string;
  readonly voice: string;

  constructor(private readonly options: CloudProviderOptions<TtsProviderConfig>) {
    this.model = options.config.model;
    this.voice = options.config.voice;
  }

  async *synthesize(text: string, options: SynthesizeOptions = {}): AsyncIterable<AudioChunk> {
    if (!text.trim()) return;
    const { config, apiKey, net, baseUrl } = this.options;
    const url = vendorUrl("https://api.deepgram.com", "/v1/speak", baseUrl);
    // Aura voices are models ("aura-2-thalia-en"); the REST default container is WAV, so ask for none.
    url.searchParams.set("model", config.voice);
    url.searchParams.set("encoding", "linear16");
    url.searchParams.set("sample_rate", String(config.sampleRate));
    url.searchParams.set("container", "none");
    const response = await vendorRequest({
      provider: PROVIDER,
      url: url.toString(),
      headers: { Authorization: `Token ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ text }),
      net,
      signal: options.signal,
    });
    yield* streamPcmBody(PROVIDER, response, config.sampleRate, options.signal);
  }
}
