import { ERROR_TEXTS } from "@parley/contract";
import type { FastifyBaseLogger } from "fastify";
import { type LoadSample, type LoadSource, PROBE_TICK_MS } from "./admission-probe.ts";
import type { AdmissionSettings } from "./admission-settings.ts";
import { AppError } from "./app-error.ts";

/**
 * Admission control: this process refuses new calls while it is saturated, so the calls it runs
 * keep their audio. Each channel asks `admit()` before a call takes anything (a slot, a room, a
 * port); a call once admitted is never cut by it. A process running no call takes the first one
 * whatever the figures say: there is nothing to protect. Otherwise, two kinds of refusal:
 *  - busy: the event loop's delay p99 reached ADMISSION_MAX_LAG_MS in two of the last four half
 *    seconds, or the media path missed audio deadlines in two of them. Once the window is clear it
 *    holds for three calm seconds more (p99 under half the limit, no misses), so a process near
 *    its limit does not flap between taking and refusing calls.
 *  - full: the loop's utilisation plus one more call's share (learnt from the calls running) would
 *    pass ADMISSION_MAX_LOAD. Calls admitted in the last seconds count as running in full before
 *    the probe sees their load, so a burst of offers cannot all slip in before the lag shows it.
 */

export type AdmissionState = "open" | "busy" | "full" | "off";
export type RefusalReason = "event_loop_lag" | "audio_deadline_misses" | "load" | "max_calls";

/** The refusal every channel turns into its own "busy" (HTTP 503, SIP 503, a carrier's busy answer). */
export class ServerBusyError extends AppError {
  constructor(
    readonly reason: RefusalReason,
    readonly retryAfterSeconds: number,
  ) {
    super("unavailable", ERROR_TEXTS.serverBusy, { "retry-after": String(retryAfterSeconds) });
    this.name = "ServerBusyError";
  }
}

/** What readiness and the refusal log show. */
export interface AdmissionStatus {
  state: AdmissionState;
  lagP99Ms: number;
  lagMeanMs: number;
  utilization: number;
  runningCalls: number;
  /** The event-loop share one call is taken to need. */
  perCallLoad: number;
}

/** Samples the busy state looks back over (2 s). */
const WINDOW_TICKS = 4;
/** Samples of the window whose p99 delay reached the limit, or that had audio misses, that make the process busy. */
const LAGGING_TICKS = 2;
/** Calm samples in a row that end a busy state (3 s). */
const CALM_TICKS = 6;
/** Samples during which a new call counts in full before its load shows (3 s: it joins, greets). */
const SETTLE_TICKS = 6;
/** A call's share of one core before any is measured: 0.010–0.013 through the real sockets (issue 35). */
const PRIOR_CALL_LOAD = 0.012;
/** Calls needed before their measured share replaces the prior (fewer: the idle load dominates). */
const CALLS_TO_LEARN = 4;
const RETRY_AFTER_SECONDS = 5;
/** At most one refusal line per interval: a flood of offers must not flood the log. */
const LOG_INTERVAL_MS = 10_000;

const idle: LoadSample = { lagP99Ms: 0, lagMeanMs: 0, utilization: 0, audioMisses: 0 };

/** A new call's place, held from its admission until the probe sees its load. */
export interface AdmissionTicket {
  release(): void;
}

export interface AdmissionDeps {
  source: LoadSource;
  /** Calls this process holds (rooms, joined or not). */
  runningCalls(): number;
  log: FastifyBaseLogger;
}

export class AdmissionGate {
  private source: LoadSource;
  private seq = 0;
  private readonly window: LoadSample[] = [];
  private busy: RefusalReason | null = null;
  private calmTicks = 0;
  /** New calls admitted per tick, newest last (SETTLE_TICKS of them, plus the current one). */
  private readonly admittedPerTick: number[] = [0];
  private perCallLoad = PRIOR_CALL_LOAD;
  /** Samples folded in so far. */
  private ticks = 0;
  private refusedSinceLog = 0;
  private lastLogAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly settings: AdmissionSettings,
    private readonly deps: AdmissionDeps,
  ) {
    this.source = deps.source;
  }

  /** Reads the load from `source` from now on (tests and benches simulate saturation this way). */
  useSource(source: LoadSource): void {
    this.source = source;
    this.seq = source.samplesSince(0).seq;
    this.window.length = 0;
    this.busy = null;
    this.calmTicks = 0;
    this.admittedPerTick.splice(0, this.admittedPerTick.length, 0);
  }

  /**
   * Takes a place for a new call on `channel`, or throws ServerBusyError. The place counts as a
   * running call until the probe can see its load; `release()` gives it back when the call does not
   * start after all (an unknown assistant, the workspace's limit), so refused offers cannot crowd out
   * the calls that do start.
   */
  admit(channel: string): AdmissionTicket {
    if (!this.settings.enabled) return { release: () => undefined };
    this.check(channel);
    const tick = this.ticks;
    this.admittedPerTick[this.admittedPerTick.length - 1] = (this.admittedPerTick.at(-1) ?? 0) + 1;
    let released = false;
    return {
      release: () => {
        const index = this.admittedPerTick.length - 1 - (this.ticks - tick);
        if (released || index < 0) return;
        released = true;
        this.admittedPerTick[index] = Math.max(0, (this.admittedPerTick[index] ?? 0) - 1);
      },
    };
  }

  /**
   * Throws ServerBusyError when a new call would be refused, without taking a place: for channels
   * that have work of their own to do before the call opens (a SIP port, a widget's slot).
   */
  check(channel: string): void {
    if (!this.settings.enabled) return;
    this.catchUp();
    const reason = this.refusal();
    if (!reason) return;
    this.noteRefusal(reason, channel);
    throw new ServerBusyError(reason, RETRY_AFTER_SECONDS);
  }

  /** Whether a new call would be refused now, and the figures behind it (readiness). */
  status(): AdmissionStatus {
    if (!this.settings.enabled) return { ...this.figures(), state: "off" };
    this.catchUp();
    const reason = this.refusal();
    const state = reason === null ? "open" : reason === "load" || reason === "max_calls" ? "full" : "busy";
    return { ...this.figures(), state };
  }

  private refusal(): RefusalReason | null {
    const running = this.deps.runningCalls();
    const settling = this.admittedPerTick.reduce((sum, n) => sum + n, 0);
    // With no call to protect, the lag or load is someone else's (a neighbour on the machine, a
    // build): refusing would turn the caller away and protect nobody. The first call is taken.
    if (running + settling === 0) return null;
    if (this.busy) return this.busy;
    const { maxCalls, maxLoad } = this.settings;
    if (maxCalls !== null && running + 1 > maxCalls) return "max_calls";
    // Calls admitted in the last seconds may not show in the utilisation yet: count them in full.
    const projected = this.latest().utilization + this.perCallLoad * (settling + 1);
    return projected > maxLoad ? "load" : null;
  }

  /** Folds in the samples the probe took since the last look. */
  private catchUp(): void {
    const { seq, samples } = this.source.samplesSince(this.seq);
    this.seq = seq;
    for (const sample of samples) this.tick(sample);
  }

  private tick(sample: LoadSample): void {
    this.ticks += 1;
    this.window.push(sample);
    if (this.window.length > WINDOW_TICKS) this.window.shift();
    this.admittedPerTick.push(0);
    if (this.admittedPerTick.length > SETTLE_TICKS + 1) this.admittedPerTick.shift();
    this.learnCallLoad(sample);
    // Sustained lag, not one stall (a garbage collection, one slow query on the embedded database):
    // a single stall is a single short gap, and refusing for it would turn calls away for nothing.
    const lagging = this.window.filter((s) => s.lagP99Ms >= this.settings.maxLagMs).length;
    // Likewise misses: one stall makes every running call miss a frame at once, so what counts is
    // how many samples had misses, not how many calls reported them.
    const missing = this.window.filter((s) => s.audioMisses > 0).length;
    const cause: RefusalReason | null =
      missing >= LAGGING_TICKS ? "audio_deadline_misses" : lagging >= LAGGING_TICKS ? "event_loop_lag" : null;
    if (cause) {
      if (!this.busy)
        this.deps.log.warn({ ...this.figures(), cause }, "this process is saturated: new calls are refused");
      this.busy = cause;
      this.calmTicks = 0;
      return;
    }
    if (!this.busy) return;
    const calm = sample.lagP99Ms < this.settings.maxLagMs / 2 && sample.audioMisses === 0;
    this.calmTicks = calm ? this.calmTicks + 1 : 0;
    if (this.calmTicks >= CALM_TICKS) {
      this.busy = null;
      this.deps.log.info({ ...this.figures(), refused: this.refusedSinceLog }, "this process takes new calls again");
    }
  }

  /** One call's share of the loop, from what the running calls use (the idle load counted in: cautious). */
  private learnCallLoad(sample: LoadSample): void {
    const running = this.deps.runningCalls();
    if (running < CALLS_TO_LEARN) return;
    const measured = sample.utilization / running;
    this.perCallLoad = Math.min(0.5, Math.max(0.001, 0.7 * this.perCallLoad + 0.3 * measured));
  }

  private latest(): LoadSample {
    return this.window.at(-1) ?? idle;
  }

  private figures(): Omit<AdmissionStatus, "state"> {
    const latest = this.latest();
    return {
      lagP99Ms: Math.round(Math.max(0, ...this.window.map((s) => s.lagP99Ms))),
      lagMeanMs: Math.round(latest.lagMeanMs * 10) / 10,
      utilization: Math.round(latest.utilization * 1000) / 1000,
      runningCalls: this.deps.runningCalls(),
      perCallLoad: Math.round(this.perCallLoad * 10_000) / 10_000,
    };
  }

  private noteRefusal(reason: RefusalReason, channel: string): void {
    this.refusedSinceLog += 1;
    const now = Date.now();
    if (now - this.lastLogAt < LOG_INTERVAL_MS) return;
    this.deps.log.warn(
      { ...this.figures(), reason, channel, refused: this.refusedSinceLog, limits: this.limits() },
      "new call refused: this process is busy",
    );
    this.lastLogAt = now;
    this.refusedSinceLog = 0;
  }

  private limits() {
    const { maxLagMs, maxLoad, maxCalls } = this.settings;
    return { maxLagMs, maxLoad, maxCalls, probeTickMs: PROBE_TICK_MS };
  }
}
