import type { TtsProviderConfig } from "@parley/contract";
import { TtsBase } from "../stage-bases.ts";
import type { AudioChunk, SynthesizeOptions } from "../types.ts";
import { streamPcmBody } from "./pcm-stream.ts";
import type { CloudProviderOptions } from "./speech-options.ts";
import { vendorRequest } from "./vendor-request.ts";

/** What a cloud voice is built from. */
export type TtsOptions = CloudProviderOptions<TtsProviderConfig>;

/** One synthesis request as a vendor wants it, and the rate of the raw PCM it answers with. */
export interface SpeechRequest {
  url: string;
  headers: Record<string, string>;
  json: unknown;
  sampleRate: number;
}

/**
 * A voice behind one HTTP request per sentence whose response body streams the audio. A vendor
 * only says how to ask (`request`) and, when its body is not raw PCM, how to read it (`audio`).
 */
export abstract class HttpStreamingTts extends TtsBase {
  readonly model: string;
  readonly voice: string;

  constructor(
    /** The vendor's name in errors. */
    protected readonly provider: string,
    protected readonly options: TtsOptions,
  ) {
    super();
    this.model = options.config.model;
    this.voice = options.config.voice;
  }

  protected abstract request(text: string): SpeechRequest;

  protected audio(response: Response, sampleRate: number, signal?: AbortSignal): AsyncIterable<AudioChunk> {
    return streamPcmBody(this.provider, response, sampleRate, signal);
  }

  protected async *run(text: string, options: SynthesizeOptions): AsyncIterable<AudioChunk> {
    if (!text.trim()) return;
    const { url, headers, json, sampleRate } = this.request(text);
    const response = await vendorRequest({
      provider: this.provider,
      url,
      headers,
      json,
      net: this.options.net,
      signal: options.signal,
    });
    yield* this.audio(response, sampleRate, options.signal);
  }
}

/**
 * The stage class of a vendor whose response body is raw PCM: the vendor gives its stage id, its
 * name in errors and how it asks for one sentence, and nothing else.
 */
export function httpTts(
  id: string,
  provider: string,
  request: (text: string, options: TtsOptions) => SpeechRequest,
): new (
  options: TtsOptions,
) => HttpStreamingTts {
  return class extends HttpStreamingTts {
    readonly id = id;

    constructor(options: TtsOptions) {
      super(provider, options);
    }

    protected request(text: string): SpeechRequest {
      return request(text, this.options);
    }
  };
}
