import { ProviderError } from "../provider-error.ts";

export interface RetryOptions {
  /** Attempts in all, including the first. */
  attempts?: number;
  /** First backoff delay; doubles each time, with jitter. */
  baseDelayMs?: number;
  signal?: AbortSignal;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Runs `attempt` until it succeeds, retrying only failures that say they are retryable. */
export async function withRetry<T>(attempt: (n: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 3;
  const base = options.baseDelayMs ?? 200;
  let last: unknown;
  for (let n = 1; n <= attempts; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      last = error;
      const retryable = error instanceof ProviderError ? error.retryable : !options.signal?.aborted;
      if (!retryable || n === attempts || options.signal?.aborted) throw error;
      await sleep(base * 2 ** (n - 1) * (0.75 + Math.random() * 0.5), options.signal);
    }
  }
  throw last;
}

/** Rejects with a retryable ProviderError when `promise` takes longer than `ms`. */
export function withTimeout<T>(provider: string, promise: Promise<T>, ms: number, what = "request"): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderError(provider, `${what} timed out after ${ms} ms`, true)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
