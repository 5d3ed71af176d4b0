import { encodeWav } from "../../audio/wav.ts";
import { UtteranceStt } from "../shared/stt-stages.ts";
import { vendorRequest } from "../shared/vendor-request.ts";
import { vendorUrl } from "../shared/vendor-url.ts";
import type { StageConfig } from "../vendor-adapters.ts";

const PROVIDER = "Groq";
export type GroqSttConfigValues = StageConfig<"stt", "groq">;

/**
 * Groq's Whisper transcription, one request per utterance: the buffered audio goes as a WAV file to
 * the OpenAI-style `POST /openai/v1/audio/transcriptions`.
 */
export class GroqStt extends UtteranceStt<GroqSttConfigValues> {
  readonly id = "groq";
  readonly provider = PROVIDER;

  async transcribe(pcm: Int16Array, signal: AbortSignal): Promise<{ text: string; language?: string }> {
    const { config, baseUrl } = this.options;
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
      url: vendorUrl("https://api.groq.com", "/openai/v1/audio/transcriptions", baseUrl).toString(),
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
