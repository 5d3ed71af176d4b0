import { ProviderError } from "../provider-error.ts";
import { pcmBytes } from "../shared/pcm-wire.ts";
import type { CloudProviderOptions } from "../shared/speech-options.ts";
import { StreamingStt } from "../shared/stt-stages.ts";
import { TranscriptProtocol } from "../shared/transcript-protocol.ts";
import { vendorUrl } from "../shared/vendor-url.ts";
import type { SttSink, WireMessage, WsSttProtocol } from "../shared/ws-stt-session.ts";
import type { SttOpenOptions } from "../types.ts";
import type { StageConfig } from "../vendor-adapters.ts";

const PROVIDER = "Speechmatics";
export type SpeechmaticsConfig = StageConfig<"stt", "speechmatics">;

/** Error types a new session with the same settings would hit again. */
const FATAL_ERRORS = new Set([
  "not_authorised",
  "insufficient_funds",
  "not_allowed",
  "invalid_message",
  "invalid_model",
  "invalid_config",
  "invalid_audio_type",
  "invalid_output_format",
  "unsupported_language",
]);

/** Speechmatics real-time transcription over `wss://eu2.rt.speechmatics.com/v2`. */
export class SpeechmaticsStt extends StreamingStt<SpeechmaticsConfig> {
  readonly id = "speechmatics";
  protected readonly protocol = (open: SttOpenOptions) => new SpeechmaticsProtocol(this.options, open);
}

/**
 * The recognition language. Speechmatics identifies languages only in batch jobs, so "auto" (the
 * default) falls back to English.
 */
function recognitionLanguage(config: SpeechmaticsConfig): string {
  if (config.language === "auto") return "en";
  return config.language.split("-")[0] ?? config.language;
}

/** The StartRecognition message for the assistant's settings (raw 16 kHz pcm_s16le audio). */
export function startRecognition(config: SpeechmaticsConfig): Record<string, unknown> {
  return {
    message: "StartRecognition",
    audio_format: { type: "raw", encoding: "pcm_s16le", sample_rate: 16_000 },
    transcription_config: {
      language: recognitionLanguage(config),
      operating_point: config.operating_point,
      enable_partials: true,
      max_delay: 1,
      conversation_config: { end_of_utterance_silence_trigger: 0.5 },
      ...(config.additional_vocab.length > 0
        ? { additional_vocab: config.additional_vocab.map((content) => ({ content })) }
        : {}),
    },
  };
}

class SpeechmaticsProtocol extends TranscriptProtocol implements WsSttProtocol {
  readonly waitForReady = true;
  private readonly startMessage: string;
  private seqNo = 0;
  private started = false;

  constructor({ config, apiKey, baseUrl }: CloudProviderOptions<SpeechmaticsConfig>, open: SttOpenOptions) {
    const url = vendorUrl("wss://eu2.rt.speechmatics.com", "/v2", baseUrl).toString();
    super(PROVIDER, url, { Authorization: `Bearer ${apiKey}` }, open);
    this.startMessage = JSON.stringify(startRecognition(config));
  }

  start(): WireMessage[] {
    // Sequence numbers count the audio frames of one connection.
    this.seqNo = 0;
    this.started = false;
    return [this.startMessage];
  }

  audio(pcm: Int16Array): WireMessage {
    this.seqNo++;
    return pcmBytes(pcm);
  }

  finalize(): WireMessage[] {
    return [JSON.stringify({ message: "ForceEndOfUtterance" })];
  }

  end(): WireMessage[] {
    return [JSON.stringify({ message: "EndOfStream", last_seq_no: this.seqNo })];
  }

  protected event(message: Record<string, unknown>, sink: SttSink): void {
    const metadata = message.metadata as { transcript?: unknown } | undefined;
    const transcript = typeof metadata?.transcript === "string" ? metadata.transcript : "";
    switch (message.message) {
      case "RecognitionStarted":
        this.started = true;
        sink.ready();
        break;
      case "AddPartialTranscript":
        this.text.partial(transcript);
        break;
      case "AddTranscript":
        this.text.final(transcript);
        break;
      case "EndOfUtterance":
        this.text.end();
        break;
      case "Error":
        this.error(message, sink);
        break;
    }
  }

  private error(message: Record<string, unknown>, sink: SttSink): void {
    const type = String(message.type ?? "error");
    const fatal = FATAL_ERRORS.has(type);
    // After a recoverable error Speechmatics closes the socket; mid-call that close is a drop to reconnect.
    if (fatal || !this.started) {
      sink.fail(new ProviderError(PROVIDER, `${type}: ${String(message.reason ?? "")}`.trim(), !fatal));
    }
  }
}
