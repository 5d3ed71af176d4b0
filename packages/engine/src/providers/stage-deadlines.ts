import type { Clock } from "../clock/clock.ts";
import { systemClock } from "../clock/system-clock.ts";
import { ProviderError } from "./provider-error.ts";
import type { AudioChunk, ChatRequest, LlmChunk, LlmProvider, SynthesizeOptions, TtsProvider } from "./types.ts";

/** A stage that did not start answering in time; retryable, so the chain moves on to the next provider. */
export class StageTimeoutError extends ProviderError {
  constructor(provider: string, what: string, ms: number) {
    super(provider, `no ${what} within ${ms} ms`, true);
    this.name = "StageTimeoutError";
  }
}

/** A transcriber that heard the caller speak and gave no words (no event at all) in time. */
export class SilentTranscriberError extends ProviderError {
  constructor(provider: string, speechMs: number, waitedMs: number) {
    super(provider, `no transcript for ${Math.round(speechMs)} ms of speech after ${Math.round(waitedMs)} ms`, true);
    this.name = "SilentTranscriberError";
  }
}

/**
 * Streams `open`'s output, giving up with a StageTimeoutError when its first item takes longer
 * than `ms`: the request is aborted (its own signal, chained to the caller's) and the chain around
 * it tries the next provider. Once the first item is in, the stream runs as long as it runs.
 */
type Timers = Pick<Clock, "setTimeout" | "clearTimeout">;

async function* firstItemWithin<T>(
  clock: Timers,
  provider: string,
  what: string,
  ms: number,
  outer: AbortSignal | undefined,
  open: (signal: AbortSignal) => AsyncIterable<T>,
): AsyncGenerator<T> {
  const controller = new AbortController();
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener("abort", forward, { once: true });
  const iterator = open(controller.signal)[Symbol.asyncIterator]();
  let finished = false;
  try {
    let timer: unknown = null;
    const late = new Promise<never>((_, reject) => {
      const expire = () => {
        controller.abort();
        reject(new StageTimeoutError(provider, what, ms));
      };
      // After a stall, expired timers run before the I/O that came in meanwhile: one more turn of
      // the loop lets an answer (or the vendor's own error) that already arrived win over the deadline.
      timer = clock.setTimeout(() => {
        timer = clock.setTimeout(expire, 0);
      }, ms);
    });
    let result: IteratorResult<T>;
    try {
      result = await Promise.race([iterator.next(), late]);
    } finally {
      clock.clearTimeout(timer);
    }
    while (!result.done) {
      yield result.value;
      result = await iterator.next();
    }
    finished = true;
  } finally {
    outer?.removeEventListener("abort", forward);
    if (!finished) {
      controller.abort();
      // The abandoned request may still be settling; its outcome no longer matters.
      void iterator.return?.()?.catch(() => undefined);
    }
  }
}

/** A model whose requests must yield their first token (text, tool call) within `ms`. */
export class FirstTokenDeadline implements LlmProvider {
  constructor(
    private readonly inner: LlmProvider,
    private readonly ms: number,
    private readonly clock: Timers = systemClock,
  ) {}

  get id(): string {
    return this.inner.id;
  }

  get model(): string {
    return this.inner.model;
  }

  chat(request: ChatRequest): AsyncIterable<LlmChunk> {
    return firstItemWithin(this.clock, this.inner.id, "first token", this.ms, request.signal, (signal) =>
      this.inner.chat({ ...request, signal }),
    );
  }
}

/** A voice whose sentences must yield their first audio within `ms`. */
export class FirstAudioDeadline implements TtsProvider {
  constructor(
    private readonly inner: TtsProvider,
    private readonly ms: number,
    private readonly clock: Timers = systemClock,
  ) {}

  get id(): string {
    return this.inner.id;
  }

  get model(): string {
    return this.inner.model;
  }

  get voice(): string {
    return this.inner.voice;
  }

  synthesize(text: string, options: SynthesizeOptions = {}): AsyncIterable<AudioChunk> {
    return firstItemWithin(this.clock, this.inner.id, "audio", this.ms, options.signal, (signal) =>
      this.inner.synthesize(text, { ...options, signal }),
    );
  }
}
