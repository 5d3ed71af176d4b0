import type { Clock } from "../src/clock/clock.ts";
import { flushAsync } from "./frame-harness.ts";

interface Timer {
  id: number;
  at: number;
  fn: () => void;
  every: number | null;
}

/**
 * A Clock whose time moves only when a test advances it. Timers fire in time order and pending
 * async work settles after each one, so a minute-long call runs in milliseconds.
 */
export class VirtualClock implements Clock {
  private time = 0;
  private nextId = 1;
  private timers: Timer[] = [];

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    return this.add(fn, ms, null);
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  setInterval(fn: () => void, ms: number): unknown {
    return this.add(fn, ms, Math.max(1, ms));
  }

  clearInterval(handle: unknown): void {
    this.clearTimeout(handle);
  }

  /** Moves time forward by `ms`, firing every timer due on the way. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    await flushAsync();
    for (let timer = this.nextDue(end); timer; timer = this.nextDue(end)) {
      this.time = Math.max(this.time, timer.at);
      if (timer.every === null) this.clearTimeout(timer.id);
      else timer.at += timer.every;
      timer.fn();
      await flushAsync();
    }
    this.time = end;
    await flushAsync();
  }

  /** Advances in steps until `done()` holds; throws after `maxMs` of virtual time. */
  async until(done: () => boolean, maxMs = 60_000, stepMs = 20): Promise<void> {
    const limit = this.time + maxMs;
    while (!done()) {
      if (this.time >= limit) throw new Error(`condition not met within ${maxMs} ms of virtual time`);
      await this.advance(stepMs);
    }
  }

  private add(fn: () => void, ms: number, every: number | null): number {
    const id = this.nextId++;
    this.timers.push({ id, at: this.time + Math.max(0, ms), fn, every });
    return id;
  }

  private nextDue(end: number): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) if (t.at <= end && (!best || t.at < best.at)) best = t;
    return best;
  }
}
