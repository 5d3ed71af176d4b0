import type { Clock } from "./types.ts";

/** The call's time limit: a warning at a share of it, the end at the limit. */
export class MaxDuration {
  private timers: unknown[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly seconds: number,
    private readonly warningShare: number,
  ) {}

  start(onWarning: () => void, onLimit: () => void): void {
    const limit = this.seconds * 1000;
    this.timers.push(this.clock.setTimeout(onWarning, limit * this.warningShare));
    this.timers.push(this.clock.setTimeout(onLimit, limit));
  }

  stop(): void {
    for (const t of this.timers) this.clock.clearTimeout(t);
    this.timers = [];
  }
}
