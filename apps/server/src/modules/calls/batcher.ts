/**
 * Collects items and runs them as one batch, with at most one batch in flight: items added while a
 * batch runs wait for the next. When 50 calls end at once their 50 room deletions become one or
 * two statements on one pooled connection, leaving the rest of the pool to requests.
 */
export class Batcher<T> {
  private pending: { item: T; done: () => void; failed: (error: unknown) => void }[] = [];
  private running = false;

  constructor(private readonly run: (items: T[]) => Promise<void>) {}

  /** Resolves (or rejects) once the batch holding `item` has run. */
  add(item: T): Promise<void> {
    return new Promise<void>((done, failed) => {
      this.pending.push({ item, done, failed });
      // The next turn of the event loop: what else ends in this one joins the batch.
      if (!this.running && this.pending.length === 1) setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.run(batch.map((entry) => entry.item));
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.failed(error);
      }
    }
    this.running = false;
  }
}
