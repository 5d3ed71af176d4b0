import { ProviderError } from "./provider-error.ts";

/** Reported each time a fallback adapter moves a call from one provider to the next. */
export interface FallbackSwitch {
  stage: "stt" | "llm" | "tts";
  from: string;
  to: string;
  error: Error;
  /** The same provider is tried again (ids alone cannot tell: two backups may share a vendor). */
  retry?: boolean;
}

export type OnFallbackSwitch = (event: FallbackSwitch) => void;

/** Retries happen inside each provider (its stage base); the chain only decides the order. */
export interface FallbackOptions {
  /** How long a provider that failed is passed over before it is tried first again (default 30 s). */
  cooldownMs?: number;
}

/** The ordered providers of one stage and which of them recently failed. */
export class ProviderChain<P extends { readonly id: string }> {
  private readonly failedAt = new Map<P, number>();

  constructor(
    readonly providers: readonly P[],
    private readonly options: FallbackOptions = {},
  ) {
    if (providers.length === 0) throw new Error("A fallback adapter needs at least one provider");
  }

  /** The order to try now: healthy providers by priority, then the ones still cooling down. */
  order(): P[] {
    const cooldown = this.options.cooldownMs ?? 30_000;
    const now = Date.now();
    const cooling = (p: P) => now - (this.failedAt.get(p) ?? Number.NEGATIVE_INFINITY) < cooldown;
    return [...this.providers.filter((p) => !cooling(p)), ...this.providers.filter(cooling)];
  }

  markFailed(provider: P): void {
    this.failedAt.set(provider, Date.now());
  }

  markHealthy(provider: P): void {
    this.failedAt.delete(provider);
  }
}

/**
 * What every fallback stage shares: the chain of its providers and the one serving now, whose id
 * the stage reports as its own.
 */
export abstract class FallbackStage<P extends { readonly id: string }> {
  protected readonly chain: ProviderChain<P>;
  protected current: P;

  constructor(
    providers: P[],
    protected readonly onSwitch?: OnFallbackSwitch,
    options?: FallbackOptions,
  ) {
    this.chain = new ProviderChain(providers, options);
    // The chain refuses an empty list, so the first of its order is there.
    this.current = this.chain.order()[0] as P;
  }

  get id(): string {
    return this.current.id;
  }
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Streams from the first provider that yields a first chunk (each provider has retried on its own),
 * falling back on the way. Once output has gone out the request cannot be re-issued without repeating it, so a failure
 * after that is rethrown (and the provider is passed over on the next request).
 */
export async function* streamWithFallback<P extends { readonly id: string }, C>(
  stage: FallbackSwitch["stage"],
  chain: ProviderChain<P>,
  open: (provider: P) => AsyncIterable<C>,
  signal: AbortSignal | undefined,
  onSwitch: OnFallbackSwitch | undefined,
): AsyncGenerator<C> {
  const order = chain.order();
  let lastError: unknown = new ProviderError(stage, "no provider could be reached", true);
  for (const [index, provider] of order.entries()) {
    let started: { iterator: AsyncIterator<C>; first: IteratorResult<C> };
    try {
      const iterator = open(provider)[Symbol.asyncIterator]();
      started = { iterator, first: await iterator.next() };
    } catch (error) {
      if (signal?.aborted) throw error;
      lastError = error;
      chain.markFailed(provider);
      const next = order[index + 1];
      if (next) onSwitch?.({ stage, from: provider.id, to: next.id, error: asError(error) });
      continue;
    }
    chain.markHealthy(provider);
    yield* drain(started.iterator, started.first, () => chain.markFailed(provider), signal);
    return;
  }
  throw lastError;
}

async function* drain<C>(
  iterator: AsyncIterator<C>,
  first: IteratorResult<C>,
  onFailure: () => void,
  signal: AbortSignal | undefined,
): AsyncGenerator<C> {
  let result = first;
  try {
    while (!result.done) {
      yield result.value;
      result = await iterator.next();
    }
  } catch (error) {
    if (!signal?.aborted) onFailure();
    throw error;
  } finally {
    // The consumer may stop early (barge-in): let the provider close its request.
    if (!result.done) await iterator.return?.();
  }
}
