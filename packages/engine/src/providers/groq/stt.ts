import { encodeWav } from "../../audio/wav.ts";
import { BufferedSttSession, type UtteranceTranscriber } from "../shared/buffered-stt-session.ts";
import type { CloudProviderOptions } from "../shared/speech-options.ts";
import { vendorRequest } from "../shared/vendor-request.ts";
import { vendorUrl } from "../shared/vendor-url.ts";
import { SttBase } from "../stage-bases.ts";
import type { SttOpenOptions, SttSession } from "../types.ts";
import type { StageConfig } from "../vendor-adapters.ts";

const PROVIDER = "Groq";
export type GroqSttConfigValues = StageConfig<"stt", "groq">;

/**
 * Groq's Whisper transcription, one request per utterance: the buffered audio goes as a WAV file to
 * the OpenAI-style `POST /openai/v1/audio/transcriptions`.
 */
export class GroqStt extends SttBase {
  readonly id = "groq";
  readonly streaming = false;

  constructor(private readonly options: CloudProviderOptions<GroqSttConfigValues>) {
    super();
  }

  protected async run(open: SttOpenOptions): Promise<SttSession> {
    return new BufferedSttSession(new GroqTranscriber(this.options), open);
  }
}

class GroqTranscriber implements UtteranceTranscriber {
  readonly provider = PROVIDER;
  private readonly url: string;

  constructor(private readonly options: CloudProviderOptions<GroqSttConfigValues>) {
    this.url = vendorUrl("https://api.groq.com", "/openai/v1/audio/transcriptions", options.baseUrl).toString();
  }

  async transcribe(pcm: Int16Array, signal: AbortSignal): Promise<{ text: string; language?: string }> {
    const { config } = this.options;
    const form = new FormData();
    form.append(
      "file",
      new Blob([encodeWav({ sampleRate: 16_000, channels: [pcm] })], { type: "audio/wav" }),
      "utterance.wav",
    );
    form.append("model", config.model);
    form.append("response_format", "json");
    form.append("temperature", "0");
    // Whisper detects the language itself when none is given.
    if (!config.detect_language && config.language !== "auto") form.append("language", config.language);
    const response = await vendorRequest({
      provider: PROVIDER,
      url: this.url,
      headers: { Authorization: `Bearer ${this.options.apiKey}` },
      body: form,
      net: this.options.net,
      signal,
    });
    const body = (await response.json()) as { text?: unknown; language?: unknown };
    return {
      text: typeof body.text === "string" ? body.text : "",
      language: typeof body.language === "string" ? body.language : undefined,
    };
  }
}
