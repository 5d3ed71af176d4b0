import { concatPcm } from "../../audio/pcm.ts";
import { ProviderError } from "../provider-error.ts";
import { LinearResampler, pcmBase64 } from "../shared/pcm-wire.ts";
import type { CloudProviderOptions } from "../shared/speech-options.ts";
import { StreamingStt } from "../shared/stt-stages.ts";
import { TranscriptProtocol } from "../shared/transcript-protocol.ts";
import { vendorUrl } from "../shared/vendor-url.ts";
import type { SttSink, WireMessage, WsSttProtocol } from "../shared/ws-stt-session.ts";
import type { SttOpenOptions } from "../types.ts";
import type { StageConfig } from "../vendor-adapters.ts";

const PROVIDER = "OpenAI";
export type OpenAiSttConfigValues = StageConfig<"stt", "openai">;

/** The Realtime API takes 24 kHz PCM only. */
const REALTIME_RATE = 24_000;
/** Append every 100 ms of 16 kHz input. */
const APPEND_SAMPLES_16K = 1_600;
/** A commit needs at least 100 ms of audio in the buffer. */
const MIN_COMMIT_SAMPLES_24K = 2_400;

/**
 * OpenAI Realtime transcription over `wss://api.openai.com/v1/realtime?intent=transcription`. The
 * engine's VAD decides turns, so server turn detection is off and `finalize()` commits the buffer.
 */
export class OpenAiStt extends StreamingStt<OpenAiSttConfigValues> {
  readonly id = "openai";
  protected readonly protocol = (open: SttOpenOptions) => new OpenAiRealtimeProtocol(this.options, open);
}

/** The session.update that makes a Realtime connection a transcription session of the assistant's settings. */
export function transcriptionSessionUpdate(config: OpenAiSttConfigValues): Record<string, unknown> {
  const language = config.detect_language || config.language === "auto" ? {} : { language: config.language };
  return {
    type: "session.update",
    session: {
      type: "transcription",
      audio: {
        input: {
          format: { type: "audio/pcm", rate: REALTIME_RATE },
          transcription: { model: config.model, ...language },
          turn_detection: null,
        },
      },
    },
  };
}

/** The Realtime endpoint opened for transcription only. */
function realtimeTranscriptionUrl(baseUrl: string | undefined): string {
  const url = vendorUrl("wss://api.openai.com", "/v1/realtime", baseUrl);
  url.searchParams.set("intent", "transcription");
  return url.toString();
}

class OpenAiRealtimeProtocol extends TranscriptProtocol implements WsSttProtocol {
  readonly waitForReady = true;
  private readonly update: string;
  private resampler = new LinearResampler(16_000, REALTIME_RATE);
  private gathered: Int16Array[] = [];
  private gatheredSamples = 0;
  private uncommittedSamples = 0;
  private started = false;
  private readonly deltas = new Map<string, string>();

  constructor({ config, apiKey, baseUrl }: CloudProviderOptions<OpenAiSttConfigValues>, open: SttOpenOptions) {
    super(PROVIDER, realtimeTranscriptionUrl(baseUrl), { Authorization: `Bearer ${apiKey}` }, open);
    this.update = JSON.stringify(transcriptionSessionUpdate(config));
  }

  start(): WireMessage[] {
    // The uncommitted count is kept across a reconnect: audio queued meanwhile is replayed into the
    // new buffer, and an overcount only costs a harmless "commit_empty" answer.
    this.started = false;
    return [this.update];
  }

  audio(pcm: Int16Array): WireMessage | null {
    this.gathered.push(pcm);
    this.gatheredSamples += pcm.length;
    return this.gatheredSamples >= APPEND_SAMPLES_16K ? this.append() : null;
  }

  finalize(): WireMessage[] {
    const messages: WireMessage[] = this.gatheredSamples > 0 ? [this.append()] : [];
    if (this.uncommittedSamples === 0) {
      // Nothing heard since the last commit: there is nothing to transcribe.
      this.text.end();
      return messages;
    }
    if (this.uncommittedSamples < MIN_COMMIT_SAMPLES_24K) {
      const pad = new Int16Array(MIN_COMMIT_SAMPLES_24K - this.uncommittedSamples);
      messages.push(JSON.stringify({ type: "input_audio_buffer.append", audio: pcmBase64(pad) }));
    }
    this.uncommittedSamples = 0;
    messages.push(JSON.stringify({ type: "input_audio_buffer.commit" }));
    return messages;
  }

  end(): WireMessage[] {
    return [];
  }

  protected event(message: Record<string, unknown>, sink: SttSink): void {
    const itemId = typeof message.item_id === "string" ? message.item_id : "";
    switch (message.type) {
      case "session.updated":
        this.started = true;
        sink.ready();
        break;
      case "conversation.item.input_audio_transcription.delta": {
        const sofar = (this.deltas.get(itemId) ?? "") + (typeof message.delta === "string" ? message.delta : "");
        this.deltas.set(itemId, sofar);
        this.text.partial(sofar);
        break;
      }
      case "conversation.item.input_audio_transcription.completed":
        this.deltas.delete(itemId);
        this.text.final(typeof message.transcript === "string" ? message.transcript : "");
        this.text.end();
        break;
      case "conversation.item.input_audio_transcription.failed":
        // The utterance is lost; closing it lets the conversation go on instead of waiting.
        this.deltas.delete(itemId);
        this.text.end();
        break;
      case "error":
        this.error(message, sink);
        break;
    }
  }

  private error(message: Record<string, unknown>, sink: SttSink): void {
    const error = (message.error ?? {}) as { type?: unknown; code?: unknown; message?: unknown };
    if (error.code === "input_audio_buffer_commit_empty") {
      this.text.end();
      return;
    }
    const retryable = error.type === "server_error" || (!this.started && error.type !== "invalid_request_error");
    sink.fail(new ProviderError(PROVIDER, String(error.message ?? error.code ?? "realtime error"), retryable));
  }

  /** One input_audio_buffer.append of the gathered audio, resampled to 24 kHz. */
  private append(): string {
    const pcm = this.resampler.push(concatPcm(this.gathered));
    this.gathered = [];
    this.gatheredSamples = 0;
    this.uncommittedSamples += pcm.length;
    return JSON.stringify({ type: "input_audio_buffer.append", audio: pcmBase64(pcm) });
  }
}
