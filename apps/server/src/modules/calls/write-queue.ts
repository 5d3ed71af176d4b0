/**
 * Runs asynchronous writes one after another per key, so a room's row is never deleted before it
 * is inserted however the event loop orders the requests. Failures go to `onError` and do not stop
 * the key's later writes.
 */
export class WriteQueue {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly onError: (error: unknown) => void) {}

  push(key: string, write: () => Promise<void>): Promise<void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(write).catch(this.onError);
    this.tails.set(key, next);
    void next.then(() => {
      if (this.tails.get(key) === next) this.tails.delete(key);
    });
    return next;
  }

  /** Resolves once the writes queued so far for `key` have run. */
  async drained(key: string): Promise<void> {
    await this.tails.get(key);
  }

  /** Resolves once every write queued so far (and any queued meanwhile) has run. */
  async settled(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
  }
}
