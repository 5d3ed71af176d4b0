import { type EventLoopUtilization, monitorEventLoopDelay, performance } from "node:perf_hooks";

/** What the process went through in one tick of the load probe. */
export interface LoadSample {
  /** 99th percentile of the event loop's delay (ms): how late a timer or a socket read ran. */
  lagP99Ms: number;
  lagMeanMs: number;
  /**
   * Share of wall time (0–1) the loop spent running callbacks. A process the machine starves of
   * CPU spends longer on the same work, so this rises with neighbours' load as well as its own.
   */
  utilization: number;
  /** Audio frames the media path sent later than their deadline (noteAudioDeadlineMiss). */
  audioMisses: number;
}

/**
 * Where admission control reads the process's load: the samples taken since a sequence number.
 * The process has one (eventLoopProbe); tests hand in their own and push samples one tick at a time.
 */
export interface LoadSource {
  samplesSince(seq: number): { seq: number; samples: LoadSample[] };
}

/** How often the probe takes a sample. */
export const PROBE_TICK_MS = 500;
/** The histogram's resolution: finer costs timer wake-ups for detail nobody acts on. */
const RESOLUTION_MS = 10;
/** Samples kept for readers that fell behind (a reader needs a few seconds at most). */
const KEPT = 32;

let audioMisses = 0;

/**
 * The media path calls this when it sends a caller's audio frame later than the frame's deadline
 * (the caller hears a gap): a miss says the process is saturated before the event loop's delay does.
 */
export function noteAudioDeadlineMiss(): void {
  audioMisses += 1;
}

/** A fixed-size history of samples with the sequence number of the newest. */
export class SampleLog implements LoadSource {
  private readonly kept: LoadSample[] = [];
  private seq = 0;

  push(sample: LoadSample): void {
    this.kept.push(sample);
    if (this.kept.length > KEPT) this.kept.shift();
    this.seq += 1;
  }

  samplesSince(seq: number): { seq: number; samples: LoadSample[] } {
    const missed = Math.min(this.seq - seq, this.kept.length);
    return { seq: this.seq, samples: missed > 0 ? this.kept.slice(-missed) : [] };
  }
}

let processProbe: SampleLog | undefined;

/**
 * The process's event loop: its delay (perf_hooks histogram) and utilisation, sampled every
 * PROBE_TICK_MS. One per process, whatever number of apps it runs (tests): the event loop is the
 * process's, and one histogram timer is all it takes. The timer does not hold the process open.
 */
export function eventLoopProbe(): LoadSource {
  if (processProbe) return processProbe;
  const log = new SampleLog();
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  let since: EventLoopUtilization = performance.eventLoopUtilization();
  const tick = () => {
    const now = performance.eventLoopUtilization();
    const window = performance.eventLoopUtilization(now, since);
    since = now;
    // The histogram counts its own sampling interval into every delay: take it off.
    log.push({
      lagP99Ms: delay.count > 0 ? Math.max(0, delay.percentile(99) / 1e6 - RESOLUTION_MS) : 0,
      lagMeanMs: delay.count > 0 ? Math.max(0, delay.mean / 1e6 - RESOLUTION_MS) : 0,
      utilization: window.utilization,
      audioMisses,
    });
    audioMisses = 0;
    delay.reset();
  };
  setInterval(tick, PROBE_TICK_MS).unref();
  processProbe = log;
  return log;
}
