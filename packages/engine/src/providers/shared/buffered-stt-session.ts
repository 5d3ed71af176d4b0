import { concatPcm } from "../../audio/pcm.ts";
import { ProviderError } from "../provider-error.ts";
import type { SttOpenOptions, SttSession } from "../types.ts";
import { withRetry } from "./retry.ts";
import { UtteranceText } from "./utterance-text.ts";

/** A vendor that transcribes one whole utterance per request. */
export interface UtteranceTranscriber {
  readonly provider: string;
  /** Transcribes one utterance of 16 kHz mono PCM. */
  transcribe(pcm: Int16Array, signal: AbortSignal): Promise<{ text: string; language?: string }>;
}

/** Shorter than this (100 ms) there is nothing worth sending. */
const MIN_UTTERANCE_SAMPLES = 1_600;
/** A runaway utterance is capped at its last 60 s. */
const MAX_UTTERANCE_SAMPLES = 16_000 * 60;

/**
 * A recognition session for request-per-utterance vendors: audio is buffered until the VAD calls
 * `finalize()`, then the utterance is sent as one request (retried once when the failure is
 * retryable). Utterances are transcribed in order; a failed one is reported through `onError`.
 */
export class BufferedSttSession implements SttSession {
  private pieces: Int16Array[] = [];
  private samples = 0;
  private closed = false;
  private queue: Promise<void> = Promise.resolve();
  private readonly controller = new AbortController();
  private readonly text: UtteranceText;

  constructor(
    private readonly transcriber: UtteranceTranscriber,
    private readonly options: SttOpenOptions,
  ) {
    this.text = new UtteranceText((event) => options.onTranscript(event));
    options.signal?.addEventListener("abort", () => void this.close(), { once: true });
  }

  sendAudio(pcm: Int16Array): void {
    if (this.closed) return;
    this.pieces.push(pcm.slice());
    this.samples += pcm.length;
    while (this.samples - (this.pieces[0]?.length ?? 0) > MAX_UTTERANCE_SAMPLES) {
      this.samples -= this.pieces.shift()?.length ?? 0;
    }
  }

  finalize(): void {
    if (this.closed) return;
    const utterance = concatPcm(this.pieces);
    this.pieces = [];
    this.samples = 0;
    this.queue = this.queue.then(() => this.transcribe(utterance));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.controller.abort();
    await this.queue;
  }

  private async transcribe(utterance: Int16Array): Promise<void> {
    if (this.closed) return;
    if (utterance.length < MIN_UTTERANCE_SAMPLES) {
      this.text.end();
      return;
    }
    const signal = this.controller.signal;
    try {
      const result = await withRetry(() => this.transcriber.transcribe(utterance, signal), { attempts: 2, signal });
      if (this.closed) return;
      this.text.final(result.text, { language: result.language });
      this.text.end();
    } catch (error) {
      if (this.closed) return;
      this.options.onError(
        error instanceof ProviderError
          ? error
          : new ProviderError(this.transcriber.provider, String(error), true, undefined, { cause: error }),
      );
    }
  }
}
