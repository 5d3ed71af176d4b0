import { concatPcm } from "../../audio/pcm.ts";
import { ProviderError } from "../provider-error.ts";
import { LinearResampler, pcmBytes } from "../shared/pcm-wire.ts";
import type { CloudProviderOptions } from "../shared/speech-options.ts";
import { StreamingStt } from "../shared/stt-stages.ts";
import { TranscriptProtocol } from "../shared/transcript-protocol.ts";
import { vendorUrl } from "../shared/vendor-url.ts";
import type { WireMessage, WsSttProtocol } from "../shared/ws-stt-session.ts";
import type { SttOpenOptions } from "../types.ts";
import type { StageConfig } from "../vendor-adapters.ts";

const PROVIDER = "Deepgram";
/**
 * Caller audio goes out in 100 ms messages (Deepgram's streaming guidance: chunks of 20–250 ms,
 * about 100 ms), not one per 20 ms frame: a fifth of the socket writes per call. A finalize sends
 * what was gathered first, so the end of a turn waits for nothing.
 */
const SEND_SAMPLES_16K = 1_600;
export type DeepgramConfig = StageConfig<"stt", "deepgram">;

/** Deepgram live transcription over `wss://api.deepgram.com/v1/listen` (linear16, interim results). */
export class DeepgramStt extends StreamingStt<DeepgramConfig> {
  readonly id = "deepgram";
  protected readonly protocol = (open: SttOpenOptions) => new DeepgramProtocol(this.options, open);
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

class DeepgramProtocol extends TranscriptProtocol implements WsSttProtocol {
  readonly keepAlive = { message: JSON.stringify({ type: "KeepAlive" }), everyMs: 5_000 };
  private readonly resampler: LinearResampler;
  private gathered: Int16Array[] = [];
  private gatheredSamples = 0;

  constructor({ config, apiKey, baseUrl }: CloudProviderOptions<DeepgramConfig>, open: SttOpenOptions) {
    super(PROVIDER, deepgramListenUrl(config, baseUrl), { Authorization: `Token ${apiKey}` }, open);
    this.resampler = new LinearResampler(16_000, config.sample_rate);
  }

  start(): WireMessage[] {
    return [];
  }

  audio(pcm: Int16Array): WireMessage | null {
    this.gathered.push(pcm);
    this.gatheredSamples += pcm.length;
    return this.gatheredSamples >= SEND_SAMPLES_16K ? this.take() : null;
  }

  finalize(): WireMessage[] {
    return [...this.rest(), JSON.stringify({ type: "Finalize" })];
  }

  end(): WireMessage[] {
    return [...this.rest(), JSON.stringify({ type: "CloseStream" })];
  }

  private rest(): WireMessage[] {
    return this.gatheredSamples > 0 ? [this.take()] : [];
  }

  /** The gathered audio as one linear16 message at the stream's rate. */
  private take(): WireMessage {
    const pcm = this.gathered.length === 1 ? (this.gathered[0] as Int16Array) : concatPcm(this.gathered);
    this.gathered = [];
    this.gatheredSamples = 0;
    return pcmBytes(this.resampler.push(pcm));
  }

  protected event(message: Record<string, unknown>): void {
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
