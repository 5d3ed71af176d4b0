import { asError, FallbackStage, type OnFallbackSwitch, type ProviderChain } from "./provider-chain.ts";
import { ProviderError } from "./provider-error.ts";
import { SilentTranscriberError } from "./stage-deadlines.ts";
import type { SttOpenOptions, SttProvider, SttSession } from "./types.ts";

/** Caller audio kept while a recogniser is re-opened: 10 s at 16 kHz, so nothing said is lost. */
const MAX_BUFFERED_SAMPLES = 160_000;
/** Re-opens allowed in one call before the failure is handed to the call itself. */
const MAX_REOPENS = 5;

/**
 * A recogniser made of several. Opening falls through the providers in order; when an open
 * session fails mid-call it is re-opened (the same provider if the failure may pass, then the
 * next ones) and the audio keeps flowing, buffered while the new session connects.
 */
export class FallbackStt extends FallbackStage<SttProvider> implements SttProvider {
  get streaming(): boolean {
    return this.current.streaming;
  }

  get punctuates(): boolean {
    return this.current.punctuates !== false;
  }

  async open(options: SttOpenOptions): Promise<SttSession> {
    const session = new FallbackSttSession(this.chain, options, this.onSwitch, (provider) => {
      this.current = provider;
    });
    await session.openFirst(this.chain.order(), null);
    return session;
  }
}

class FallbackSttSession implements SttSession {
  private inner: SttSession | null = null;
  private provider: SttProvider | null = null;
  /** Bumped on every open so callbacks of an abandoned session are ignored. */
  private generation = 0;
  private buffered: Int16Array[] = [];
  private bufferedSamples = 0;
  private finalizePending = false;
  private closed = false;
  private reopens = 0;

  constructor(
    private readonly chain: ProviderChain<SttProvider>,
    private readonly options: SttOpenOptions,
    private readonly onSwitch: OnFallbackSwitch | undefined,
    private readonly onProvider: (provider: SttProvider) => void,
  ) {}

  /** Opens the first candidate that works, reporting each hop from a failed provider to the next. */
  async openFirst(candidates: SttProvider[], cause: { from: SttProvider; error: Error } | null): Promise<void> {
    for (const provider of candidates) {
      // Every hop is reported; one back to the same provider is a retry.
      if (cause) {
        const retry = cause.from === provider;
        this.onSwitch?.({ stage: "stt", from: cause.from.id, to: provider.id, error: cause.error, retry });
      }
      const generation = ++this.generation;
      try {
        const inner = await provider.open(this.wrap(generation));
        if (this.closed) {
          await inner.close();
          return;
        }
        this.chain.markHealthy(provider);
        this.inner = inner;
        this.provider = provider;
        this.onProvider(provider);
        this.flush();
        return;
      } catch (error) {
        if (this.options.signal?.aborted) throw error;
        this.chain.markFailed(provider);
        cause = { from: provider, error: asError(error) };
      }
    }
    throw cause?.error ?? new ProviderError("stt", "no recogniser could be opened", true);
  }

  sendAudio(pcm: Int16Array): void {
    if (this.closed) return;
    if (!this.inner) {
      this.buffer(pcm);
      return;
    }
    try {
      this.inner.sendAudio(pcm);
    } catch (error) {
      this.buffer(pcm);
      this.sessionFailed(this.generation, asError(error));
    }
  }

  /**
   * The call judged the open session broken (it heard speech and no words came): it is re-opened
   * like a session that failed on its own.
   */
  restart(error: Error): void {
    this.sessionFailed(this.generation, error);
  }

  finalize(): void {
    if (this.inner) this.inner.finalize();
    else this.finalizePending = true;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.generation++;
    const inner = this.inner;
    this.inner = null;
    await inner?.close();
  }

  private wrap(generation: number): SttOpenOptions {
    return {
      ...this.options,
      onTranscript: (event) => {
        if (generation === this.generation && !this.closed) this.options.onTranscript(event);
      },
      onError: (error) => this.sessionFailed(generation, error),
    };
  }

  private sessionFailed(generation: number, error: Error): void {
    if (generation !== this.generation || this.closed || !this.provider) return;
    const failed = this.provider;
    this.chain.markFailed(failed);
    this.inner?.close().catch(() => {});
    this.inner = null;
    this.generation++;
    if (++this.reopens > MAX_REOPENS) {
      this.options.onError(error);
      return;
    }
    const providers = this.chain.providers;
    const later = providers.slice(providers.indexOf(failed) + 1);
    const retrySame = !(error instanceof ProviderError) || error.retryable;
    // A recogniser that went silent opens fine and stays silent: the next one is tried first, and
    // the same one again only when there is no other.
    const candidates =
      error instanceof SilentTranscriberError ? [...later, failed] : [...(retrySame ? [failed] : []), ...later];
    this.openFirst(candidates, { from: failed, error }).catch((final: unknown) => {
      if (!this.closed) this.options.onError(asError(final));
    });
  }

  private buffer(pcm: Int16Array): void {
    this.buffered.push(pcm);
    this.bufferedSamples += pcm.length;
    while (this.bufferedSamples > MAX_BUFFERED_SAMPLES && this.buffered.length > 1) {
      this.bufferedSamples -= this.buffered.shift()?.length ?? 0;
    }
  }

  private flush(): void {
    const pending = this.buffered;
    this.buffered = [];
    this.bufferedSamples = 0;
    for (const pcm of pending) this.inner?.sendAudio(pcm);
    if (this.finalizePending) {
      this.finalizePending = false;
      this.inner?.finalize();
    }
  }
}
