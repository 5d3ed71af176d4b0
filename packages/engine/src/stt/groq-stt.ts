import { GroqSttConfig } from "@parley/contract";
import type { SttOpenOptions, SttProvider, SttSession } from "../providers/types.ts";
import { BufferedSttSession, type UtteranceTranscriber } from "./buffered-stt-session.ts";
import { encodeWav } from "./pcm.ts";
import { type CloudProviderOptions, parseProviderConfig, vendorUrl } from "./provider-config.ts";
import { vendorRequest } from "./vendor-request.ts";

const PROVIDER = "Groq";
export type GroqSttConfigValues = ReturnType<typeof GroqSttConfig.parse>;

/**
 * Groq's Whisper transcription, one request per utterance: the buffered audio goes as a WAV file to
 * the OpenAI-compatible `POST /openai/v1/audio/transcriptions`.
 */
export class GroqStt implements SttProvider {
  readonly id = "groq";
  readonly streaming = false;

  constructor(private readonly options: CloudProviderOptions<Record<string, unknown>>) {}

  async open(open: SttOpenOptions): Promise<SttSession> {
    const config = parseProviderConfig(PROVIDER, GroqSttConfig, {
      language: open.language,
      ...this.options.config,
      ...open.config,
    });
    return new BufferedSttSession(new GroqTranscriber(config, this.options), open);
  }
}

class GroqTranscriber implements UtteranceTranscriber {
  readonly provider = PROVIDER;
  private readonly url: string;

  constructor(
    private readonly config: GroqSttConfigValues,
    private readonly options: CloudProviderOptions<Record<string, unknown>>,
  ) {
    this.url = vendorUrl("https://api.groq.com", "/openai/v1/audio/transcriptions", options.baseUrl).toString();
  }

  async transcribe(pcm: Int16Array, signal: AbortSignal): Promise<{ text: string; language?: string }> {
    const form = new FormData();
    form.append("file", new Blob([encodeWav(pcm, 16_000)], { type: "audio/wav" }), "utterance.wav");
    form.append("model", this.config.model);
    form.append("response_format", "json");
    form.append("temperature", "0");
    // Whisper detects the language itself when none is given.
    if (!this.config.detect_language && this.config.language !== "auto") form.append("language", this.config.language);
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
