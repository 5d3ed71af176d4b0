import { HamsaSttConfig } from "@parley/contract";
import type { SttOpenOptions, SttProvider, SttSession } from "../providers/types.ts";
import { BufferedSttSession, type UtteranceTranscriber } from "./buffered-stt-session.ts";
import { encodeWav } from "./pcm.ts";
import { type CloudProviderOptions, parseProviderConfig, vendorUrl } from "./provider-config.ts";
import { vendorRequest } from "./vendor-request.ts";

const PROVIDER = "Hamsa";
export type HamsaSttConfigValues = ReturnType<typeof HamsaSttConfig.parse>;

/**
 * Hamsa's Arabic-first recogniser through its synchronous realtime endpoint,
 * `POST /v1/realtime/stt`, one request per utterance: base64 WAV in, `{text}` out. Hamsa's WebSocket
 * also answers one whole clip per request, so it would add a socket without adding partials.
 */
export class HamsaStt implements SttProvider {
  readonly id = "hamsa";
  readonly streaming = false;

  constructor(private readonly options: CloudProviderOptions<Record<string, unknown>>) {}

  async open(open: SttOpenOptions): Promise<SttSession> {
    const config = parseProviderConfig(PROVIDER, HamsaSttConfig, {
      language: open.language,
      ...this.options.config,
      ...open.config,
    });
    return new BufferedSttSession(new HamsaTranscriber(config, this.options), open);
  }
}

/** Hamsa knows Arabic ("ar", its default) and English ("en"). */
function hamsaLanguage(config: HamsaSttConfigValues): "ar" | "en" {
  return !config.detect_language && config.language.toLowerCase().startsWith("en") ? "en" : "ar";
}

class HamsaTranscriber implements UtteranceTranscriber {
  readonly provider = PROVIDER;
  private readonly url: string;

  constructor(
    private readonly config: HamsaSttConfigValues,
    private readonly options: CloudProviderOptions<Record<string, unknown>>,
  ) {
    this.url = vendorUrl("https://api.tryhamsa.com", "/v1/realtime/stt", options.baseUrl).toString();
  }

  async transcribe(pcm: Int16Array, signal: AbortSignal): Promise<{ text: string; language?: string }> {
    const language = hamsaLanguage(this.config);
    const response = await vendorRequest({
      provider: PROVIDER,
      url: this.url,
      headers: { Authorization: `Token ${this.options.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        audioBase64: Buffer.from(encodeWav(pcm, 16_000)).toString("base64"),
        language,
        // The engine's own VAD already ended the utterance.
        isEosEnabled: false,
      }),
      net: this.options.net,
      signal,
    });
    const body = (await response.json()) as { text?: unknown; data?: { text?: unknown } };
    const text = typeof body.text === "string" ? body.text : body.data?.text;
    return { text: typeof text === "string" ? text : "", language };
  }
}
