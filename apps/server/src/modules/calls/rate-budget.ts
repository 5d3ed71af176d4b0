import { performance } from "node:perf_hooks";

/**
 * A token bucket: `perSecond` units refill every second up to `burst`. Spending more than is there
 * fails and spends nothing, so a client over its rate loses only what it sent too fast.
 */
export class RateBudget {
  private available: number;
  private updatedAt: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.available = burst;
    this.updatedAt = now();
  }

  trySpend(units: number): boolean {
    const now = this.now();
    this.available = Math.min(this.burst, this.available + ((now - this.updatedAt) / 1000) * this.perSecond);
    this.updatedAt = now;
    if (units > this.available) return false;
    this.available -= units;
    return true;
  }
}
