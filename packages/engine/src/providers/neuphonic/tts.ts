import type { TtsProviderConfig } from "@parley/contract";
import { ProviderError } from "../provider-error.ts";
import { HttpStreamingTts, type SpeechRequest } from "../shared/http-tts.ts";
import { PcmDecoder, readWithin, STREAM_IDLE_MS } from "../shared/pcm-stream.ts";
import type { CloudProviderOptions } from "../shared/speech-options.ts";
import { SseParser } from "../shared/sse-stream.ts";
import { vendorUrl } from "../shared/vendor-url.ts";
import type { AudioChunk } from "../types.ts";

const PROVIDER = "Neuphonic";

/** One server-sent message of `/sse/speak`: base64 PCM in `data.audio`, or an error status. */
interface NeuphonicMessage {
  status_code?: number;
  data?: { audio?: string; text?: string; sampling_rate?: number };
  errors?: unknown;
  message?: unknown;
}

/**
 * Neuphonic speech through its server-sent-events endpoint, `POST /sse/speak/{lang_code}` with
 * `X-API-KEY`; every event carries a base64 chunk of pcm_linear audio.
 */
export class NeuphonicTts extends HttpStreamingTts {
  readonly id = "neuphonic";

  constructor(options: CloudProviderOptions<TtsProviderConfig>) {
    super(PROVIDER, options);
  }

  protected request(text: string): SpeechRequest {
    const { config, apiKey, baseUrl } = this.options;
    const lang = (config.language || "en").split("-")[0] ?? "en";
    return {
      url: vendorUrl("https://api.neuphonic.com", `/sse/speak/${encodeURIComponent(lang)}`, baseUrl).toString(),
      headers: { "X-API-KEY": apiKey, accept: "text/event-stream" },
      json: {
        text,
        voice_id: config.voice,
        lang_code: lang,
        encoding: "pcm_linear",
        sampling_rate: config.sampleRate,
        speed: config.speed,
      },
      sampleRate: config.sampleRate,
    };
  }

  protected override audio(response: Response, sampleRate: number, signal?: AbortSignal): AsyncIterable<AudioChunk> {
    return neuphonicAudio(response, sampleRate, signal);
  }
}

/** The audio of a Neuphonic event stream, chunk by chunk, failing on an error event. */
async function* neuphonicAudio(
  response: Response,
  sampleRate: number,
  signal?: AbortSignal,
): AsyncGenerator<AudioChunk> {
  if (!response.body) throw new ProviderError(PROVIDER, "response has no body", true);
  const reader = response.body.getReader();
  const text = new TextDecoder();
  const parser = new SseParser();
  const decoder = new PcmDecoder(sampleRate);
  try {
    for (;;) {
      const { done, value } = await readWithin(PROVIDER, reader, STREAM_IDLE_MS, signal);
      for (const event of parser.push(done ? `${text.decode()}\n\n` : text.decode(value, { stream: true }))) {
        const message = parseMessage(event.data);
        if (message === null) continue;
        const status = message.status_code ?? 200;
        if (status >= 400)
          throw ProviderError.fromStatus(PROVIDER, status, JSON.stringify(message.errors ?? message.message ?? ""));
        if (typeof message.data?.sampling_rate === "number") decoder.sampleRate = message.data.sampling_rate;
        const pcm = message.data?.audio ? decoder.push(Buffer.from(message.data.audio, "base64")) : new Int16Array(0);
        if (pcm.length > 0) yield { pcm, sampleRate: decoder.sampleRate };
      }
      if (done) return;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

function parseMessage(data: string): NeuphonicMessage | null {
  try {
    const value = JSON.parse(data) as unknown;
    return value && typeof value === "object" ? (value as NeuphonicMessage) : null;
  } catch {
    return null;
  }
}
