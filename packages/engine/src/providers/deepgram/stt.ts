import { ProviderError } from "../provider-error.ts";
import { LinearResampler, pcmBytes } from "../shared/pcm-wire.ts";
import { parseJsonObject } from "../shared/socket-events.ts";
import type { CloudProviderOptions } from "../shared/speech-options.ts";
import { UtteranceText } from "../shared/utterance-text.ts";
import { vendorUrl } from "../shared/vendor-url.ts";
import { type SttSink, type WireMessage, type WsSttProtocol, WsSttSession } from "../shared/ws-stt-session.ts";
import { SttBase } from "../stage-bases.ts";
import type { SttOpenOptions, SttSession } from "../types.ts";
import type { StageConfig } from "../vendor-adapters.ts";

const PROVIDER = "Deepgram";
export type DeepgramConfig = StageConfig<"stt", "deepgram">;

/** Deepgram live transcription over `wss://api.deepgram.com/v1/listen` (linear16, interim results). */
export class DeepgramStt extends SttBase {
  readonly id = "deepgram";
  readonly streaming = true;

  constructor(private readonly options: CloudProviderOptions<DeepgramConfig>) {
    super();
  }

  protected async run(open: SttOpenOptions): Promise<SttSession> {
    const protocol = new DeepgramProtocol(this.options, open);
    const session = new WsSttSession(protocol, this.options.net, open);
    await session.start();
    return session;
  }
}

/** The listen URL with the assistant's settings as query parameters. */
export function deepgramListenUrl(config: DeepgramConfig, baseUrl?: string): string {
  const url = vendorUrl("wss://api.deepgram.com", "/v1/listen", baseUrl);
  const query = url.searchParams;
  query.set("model", config.model);
  // Streaming language detection is Deepgram's multilingual mode.
  query.set("language", config.detect_language ? "multi" : config.language);
  query.set("encoding", "linear16");
  query.set("sample_rate", String(config.sample_rate));
  query.set("channels", "1");
  query.set("punctuate", String(config.punctuate));
  query.set("numerals", String(config.numerals));
  query.set("filler_words", String(config.filler_words));
  query.set("profanity_filter", String(config.profanity_filter));
  query.set("interim_results", "true");
  query.set("vad_events", "true");
  query.set("utterance_end_ms", "1000");
  // Nova-3 takes key terms only; older models take boosted keywords.
  if (config.model.startsWith("nova-3")) {
    for (const term of [...config.keyterms, ...config.keywords]) query.append("keyterm", term);
  } else {
    for (const word of [...config.keywords, ...config.keyterms]) query.append("keywords", word);
  }
  return url.toString();
}

class DeepgramProtocol implements WsSttProtocol {
  readonly provider = PROVIDER;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly keepAlive = { message: JSON.stringify({ type: "KeepAlive" }), everyMs: 5_000 };
  private readonly resampler: LinearResampler;
  private readonly text: UtteranceText;

  constructor({ config, apiKey, baseUrl }: CloudProviderOptions<DeepgramConfig>, open: SttOpenOptions) {
    this.url = deepgramListenUrl(config, baseUrl);
    this.headers = { Authorization: `Token ${apiKey}` };
    this.resampler = new LinearResampler(16_000, config.sample_rate);
    this.text = new UtteranceText((event) => open.onTranscript(event));
  }

  start(): WireMessage[] {
    return [];
  }

  audio(pcm: Int16Array): WireMessage {
    return pcmBytes(this.resampler.push(pcm));
  }

  finalize(): WireMessage[] {
    return [JSON.stringify({ type: "Finalize" })];
  }

  end(): WireMessage[] {
    return [JSON.stringify({ type: "CloseStream" })];
  }

  message(raw: string, _sink: SttSink): void {
    const message = parseJsonObject(raw);
    if (!message) return;
    if (message.type === "Results") this.results(message);
    else if (message.type === "UtteranceEnd" && this.text.hasText) this.text.end(true);
  }

  closeError(code: number, reason: string): ProviderError | null {
    // 1008 is Deepgram's "policy violation" close (undecodable audio, bad request); retrying repeats it.
    if (code === 1008) return new ProviderError(PROVIDER, `stream rejected: ${reason || "policy violation"}`, false);
    return null;
  }

  private results(message: Record<string, unknown>): void {
    const channel = message.channel as { alternatives?: Array<Record<string, unknown>> } | undefined;
    const best = channel?.alternatives?.[0] ?? {};
    const transcript = typeof best.transcript === "string" ? best.transcript : "";
    if (message.is_final === true) {
      const languages = Array.isArray(best.languages) ? best.languages : [];
      this.text.final(transcript, {
        confidence: typeof best.confidence === "number" ? best.confidence : undefined,
        language: typeof languages[0] === "string" ? languages[0] : undefined,
      });
      // A Finalize answer always closes the utterance; Deepgram's own endpointing only when words settled.
      if (message.from_finalize === true) this.text.end();
      else if (message.speech_final === true && this.text.hasText) this.text.end(true);
    } else {
      this.text.partial(transcript);
    }
  }
}
