import { type RetryOptions, withRetry } from "./shared/retry.ts";
import type {
  AudioChunk,
  ChatRequest,
  LlmChunk,
  LlmProvider,
  SttOpenOptions,
  SttProvider,
  SttSession,
  SynthesizeOptions,
  TtsProvider,
} from "./types.ts";

/** How a stage retries a failure that may pass: attempts in all, and the first backoff delay. */
export type RetryPolicy = Pick<RetryOptions, "attempts" | "baseDelayMs">;

/** Two attempts: one retry of a retryable failure before the call falls back or fails. */
const DEFAULT_RETRY: RetryPolicy = { attempts: 2 };

/**
 * The stage bases own the retry policy, so an adapter implements only its `run()`: one request to
 * its vendor. A streamed request is retried only while nothing has come out, since output already
 * spoken or shown cannot be taken back; the per-request timeouts live in the shared HTTP, SSE and
 * WebSocket helpers every adapter runs on.
 */
export abstract class LlmBase implements LlmProvider {
  abstract readonly id: string;
  abstract readonly model: string;
  retry: RetryPolicy = DEFAULT_RETRY;

  protected abstract run(request: ChatRequest): AsyncIterable<LlmChunk>;

  chat(request: ChatRequest): AsyncIterable<LlmChunk> {
    return streamWithRetry(() => this.run(request), this.retry, request.signal);
  }
}

export abstract class TtsBase implements TtsProvider {
  abstract readonly id: string;
  abstract readonly model: string;
  abstract readonly voice: string;
  retry: RetryPolicy = DEFAULT_RETRY;

  protected abstract run(text: string, options: SynthesizeOptions): AsyncIterable<AudioChunk>;

  synthesize(text: string, options: SynthesizeOptions = {}): AsyncIterable<AudioChunk> {
    return streamWithRetry(() => this.run(text, options), this.retry, options.signal);
  }
}

export abstract class SttBase implements SttProvider {
  abstract readonly id: string;
  abstract readonly streaming: boolean;
  retry: RetryPolicy = DEFAULT_RETRY;

  protected abstract run(options: SttOpenOptions): Promise<SttSession>;

  open(options: SttOpenOptions): Promise<SttSession> {
    return withRetry(() => this.run(options), { ...this.retry, signal: options.signal });
  }
}

/** Streams from `open`, re-opening it while a retryable failure comes before the first item. */
async function* streamWithRetry<T>(
  open: () => AsyncIterable<T>,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
): AsyncGenerator<T> {
  const { iterator, first } = await withRetry(
    async () => {
      const iterator = open()[Symbol.asyncIterator]();
      return { iterator, first: await iterator.next() };
    },
    { ...policy, signal },
  );
  let result = first;
  try {
    while (!result.done) {
      yield result.value;
      result = await iterator.next();
    }
  } finally {
    // The consumer may stop early (barge-in): let the adapter close its request.
    if (!result.done) await iterator.return?.();
  }
}
