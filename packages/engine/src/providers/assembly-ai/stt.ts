import { concatPcm } from "../../audio/pcm.ts";
import { ProviderError } from "../provider-error.ts";
import { LinearResampler, pcmBytes } from "../shared/pcm-wire.ts";
import type { CloudProviderOptions } from "../shared/speech-options.ts";
import { StreamingStt } from "../shared/stt-stages.ts";
import { TranscriptProtocol } from "../shared/transcript-protocol.ts";
import { vendorUrl } from "../shared/vendor-url.ts";
import type { SttSink, WireMessage, WsSttProtocol } from "../shared/ws-stt-session.ts";
import type { SttOpenOptions } from "../types.ts";
import type { StageConfig } from "../vendor-adapters.ts";

const PROVIDER = "AssemblyAI";
export type AssemblyAiConfig = StageConfig<"stt", "assembly-ai">;

/** Universal Streaming wants frames of 50–1000 ms; 100 ms keeps latency low and the frame rate sane. */
const FRAME_SAMPLES_16K = 1_600;
const MIN_FRAME_SAMPLES_16K = 800;

/** AssemblyAI Universal Streaming (v3) over `wss://streaming.assemblyai.com/v3/ws`. */
export class AssemblyAiStt extends StreamingStt<AssemblyAiConfig> {
  readonly id = "assembly-ai";
  protected readonly protocol = (open: SttOpenOptions) => new AssemblyAiProtocol(this.options, open);
}

/** The v3 speech model: the configured one, or the English/multilingual universal model by language. */
function speechModel(config: AssemblyAiConfig): string {
  if (config.model !== "universal-streaming") return config.model;
  const english = !config.detect_language && config.language.toLowerCase().startsWith("en");
  return english ? "universal-streaming-english" : "universal-streaming-multilingual";
}

/** The streaming URL with the connection parameters of the assistant's settings. */
export function assemblyAiStreamingUrl(config: AssemblyAiConfig, baseUrl?: string): string {
  const url = vendorUrl("wss://streaming.assemblyai.com", "/v3/ws", baseUrl);
  const query = url.searchParams;
  query.set("sample_rate", String(config.sample_rate));
  query.set("encoding", config.encoding);
  query.set("speech_model", speechModel(config));
  query.set("format_turns", "true");
  // v3 names for the classic settings: the silence threshold ends a confident turn, word boost is key terms.
  query.set("min_end_of_turn_silence_when_confident", String(config.end_utterance_silence_threshold));
  if (config.detect_language) query.set("language_detection", "true");
  if (config.word_boost.length > 0) query.set("keyterms_prompt", JSON.stringify(config.word_boost));
  return url.toString();
}

/** Error codes that reconnecting with the same parameters cannot fix (auth, funds, bad parameters). */
function isFatal(code: number): boolean {
  return code === 1008 || (code >= 4000 && code <= 4004) || code === 4101 || code === 4104;
}

class AssemblyAiProtocol extends TranscriptProtocol implements WsSttProtocol {
  readonly waitForReady = true;
  private readonly resampler: LinearResampler;
  private gathered: Int16Array[] = [];
  private gatheredSamples = 0;

  private readonly config: AssemblyAiConfig;

  constructor({ config, apiKey, baseUrl }: CloudProviderOptions<AssemblyAiConfig>, open: SttOpenOptions) {
    super(PROVIDER, assemblyAiStreamingUrl(config, baseUrl), { Authorization: apiKey }, open);
    this.config = config;
    this.resampler = new LinearResampler(16_000, config.sample_rate);
  }

  start(): WireMessage[] {
    return [];
  }

  audio(pcm: Int16Array): WireMessage | null {
    this.gathered.push(pcm);
    this.gatheredSamples += pcm.length;
    return this.gatheredSamples >= FRAME_SAMPLES_16K ? this.takeFrame() : null;
  }

  finalize(): WireMessage[] {
    const rest = this.gatheredSamples > 0 ? [this.takeFrame()] : [];
    return [...rest, JSON.stringify({ type: "ForceEndpoint" })];
  }

  end(): WireMessage[] {
    const rest = this.gatheredSamples > 0 ? [this.takeFrame()] : [];
    return [...rest, JSON.stringify({ type: "Terminate" })];
  }

  protected event(message: Record<string, unknown>, sink: SttSink): void {
    if (message.type === "Begin") sink.ready();
    else if (message.type === "Turn") this.turn(message);
    else if (message.type === "Error") {
      const code = typeof message.error_code === "number" ? message.error_code : 0;
      // A recoverable error is followed by a close, which the session treats as a drop and reconnects.
      if (isFatal(code)) sink.fail(new ProviderError(PROVIDER, `${String(message.error)} (code ${code})`, false));
    }
  }

  closeError(code: number, reason: string): ProviderError | null {
    return isFatal(code) ? new ProviderError(PROVIDER, `${reason || "session refused"} (code ${code})`, false) : null;
  }

  /** A frame of at least 50 ms (short tails are padded with silence), resampled and encoded. */
  private takeFrame(): Uint8Array {
    const pcm = concatPcm(this.gathered);
    this.gathered = [];
    this.gatheredSamples = 0;
    const padded = pcm.length >= MIN_FRAME_SAMPLES_16K ? pcm : concatPcm([pcm, new Int16Array(800 - pcm.length)]);
    const resampled = this.resampler.push(padded);
    return this.config.encoding === "pcm_mulaw" ? mulawBytes(resampled) : pcmBytes(resampled);
  }

  private turn(message: Record<string, unknown>): void {
    const transcript = typeof message.transcript === "string" ? message.transcript : "";
    if (message.end_of_turn === true) {
      // With format_turns the formatted copy of the turn follows the raw one; only that one is final.
      if (message.turn_is_formatted !== true) return;
      this.text.final(transcript);
      this.text.end(true);
      return;
    }
    if (this.config.disable_partial_transcripts) return;
    const words = Array.isArray(message.words) ? (message.words as Array<Record<string, unknown>>) : [];
    const unsettled = words
      .filter((word) => word.word_is_final === false && typeof word.text === "string")
      .map((word) => word.text as string);
    this.text.partial([transcript, ...unsettled].filter(Boolean).join(" "));
  }
}

/** G.711 μ-law encoding of 16-bit samples. */
export function mulawBytes(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) {
    let sample = pcm[i] ?? 0;
    const sign = sample < 0 ? 0x80 : 0;
    if (sample < 0) sample = -sample;
    sample = Math.min(sample, 32635) + 0x84;
    let exponent = 7;
    for (let mask = 0x4000; (sample & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
    const mantissa = (sample >> (exponent + 3)) & 0x0f;
    out[i] = ~(sign | (exponent << 4) | mantissa) & 0xff;
  }
  return out;
}
