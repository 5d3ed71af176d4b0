import type WebSocket from "ws";

/**
 * The caller's ear on the wire: the arrival time of every assistant audio frame and every server
 * message of a realtime socket, so a test can measure the silences a caller heard. The server paces
 * its audio in real time and sends quiet frames when nothing is said, so a gap is a stretch of frames
 * without sound, timed by when they arrived here (not by the server's own clock).
 */

/** A 20 ms frame whose RMS reaches this carries sound (the engine's own audibility bar is 100). */
export const SOUND_RMS = 100;

export interface HeardFrame {
  /** performance.now() when the frame arrived. */
  at: number;
  rms: number;
}

export interface TimedMessage {
  at: number;
  message: { type: string; [key: string]: unknown };
}

export interface Gap {
  /** The longest stretch without sound, in ms. */
  ms: number;
  /**
   * How much of it this process was not running at all (the machine's other work had the CPU):
   * neither the server nor the ear could act then, so it measures the machine, not the call.
   */
  starvedMs: number;
  /** Where it starts and ends (performance.now() times). */
  from: number;
  to: number;
}

function rmsOf(bytes: Buffer): number {
  const samples = Math.floor(bytes.length / 2);
  if (samples === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples; i += 1) {
    const s = bytes.readInt16LE(i * 2);
    sum += s * s;
  }
  return Math.sqrt(sum / samples);
}

/** A tick of the starvation watch: when it ran and the process's CPU time (ms) by then. */
interface Tick {
  at: number;
  cpuMs: number;
}

const TICK_MS = 20;
/** A tick this late counts as a stall worth looking at. */
const STALL_MS = 250;

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Records a socket's arrivals from now on; attach it before the call's first audio. The server of
 * a test runs in the test's own process, so the meter also watches that process: a stretch in which
 * it was not scheduled at all (late ticks with no CPU time spent) is time the machine took away,
 * told apart from the server blocking its own thread (late ticks while the CPU was busy here).
 */
export class AudioGapMeter {
  readonly frames: HeardFrame[] = [];
  readonly messages: TimedMessage[] = [];
  private readonly ticks: Tick[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(
    socket: WebSocket,
    private readonly soundRms = SOUND_RMS,
  ) {
    this.ticks.push({ at: performance.now(), cpuMs: cpuMs() });
    const ticker = setInterval(() => this.ticks.push({ at: performance.now(), cpuMs: cpuMs() }), TICK_MS);
    ticker.unref();
    socket.once("close", () => clearInterval(ticker));
    socket.on("message", (data, isBinary) => {
      const at = performance.now();
      const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (isBinary) this.frames.push({ at, rms: rmsOf(bytes) });
      else this.messages.push({ at, message: JSON.parse(bytes.toString("utf8")) as TimedMessage["message"] });
      for (const wake of this.waiters) wake();
    });
  }

  /** The clock the meter stamps with, to mark a moment (e.g. the end of the caller's turn). */
  now(): number {
    return performance.now();
  }

  /** Arrival times of the frames that carry sound, oldest first. */
  soundTimes(from = 0, to = Number.POSITIVE_INFINITY): number[] {
    return this.frames.filter((f) => f.rms >= this.soundRms && f.at >= from && f.at <= to).map((f) => f.at);
  }

  /** When the first frame with sound arrived at or after `from`; null if none has yet. */
  firstSoundAfter(from: number): number | null {
    return this.frames.find((f) => f.at >= from && f.rms >= this.soundRms)?.at ?? null;
  }

  /** When the first message matching `match` arrived (at or after `from`); null if none has yet. */
  messageAt(match: (m: TimedMessage["message"]) => boolean, from = 0): number | null {
    return this.messages.find((m) => m.at >= from && match(m.message))?.at ?? null;
  }

  /**
   * The longest stretch without sound between `from` (the end of the caller's turn) and `to`: from
   * `from` to the first sound, between sounds, and from the last sound to `to`.
   */
  longestGap(from: number, to: number = this.now()): Gap {
    let gap: Gap = { ms: 0, starvedMs: 0, from, to: from };
    let previous = from;
    for (const at of [...this.soundTimes(from, to), to]) {
      const starvedMs = this.starved(previous, at);
      if (at - previous - starvedMs > gap.ms - gap.starvedMs)
        gap = { ms: at - previous, starvedMs, from: previous, to: at };
      previous = at;
    }
    return gap;
  }

  /**
   * Milliseconds between `from` and `to` in which this process got no CPU: for each late tick, the
   * wall time it waited beyond a tick, less the CPU time the process spent meanwhile.
   */
  starved(from: number, to: number): number {
    let total = 0;
    for (let i = 1; i < this.ticks.length; i += 1) {
      const a = this.ticks[i - 1] as Tick;
      const b = this.ticks[i] as Tick;
      if (b.at <= from || a.at >= to) continue;
      const wall = b.at - a.at;
      if (wall < STALL_MS) continue;
      const idle = Math.max(0, wall - TICK_MS - (b.cpuMs - a.cpuMs));
      // Only the part of the stall inside the window.
      total += idle * ((Math.min(b.at, to) - Math.max(a.at, from)) / wall);
    }
    return total;
  }

  /** Waits until a frame with sound has arrived at or after `from`; resolves with its time. */
  waitForSound(from: number, what: string, timeoutMs = 30_000): Promise<number> {
    return this.wait(() => this.firstSoundAfter(from), what, timeoutMs);
  }

  /**
   * Waits until sound heard at or after `from` has stopped for `quietMs` (quiet frames keep arriving
   * while nothing is said, so this is checked as they come); resolves with when the sound stopped.
   */
  waitForQuiet(from: number, quietMs: number, what: string, timeoutMs = 30_000): Promise<number> {
    return this.wait(
      () => {
        const last = this.soundTimes(from).at(-1);
        if (last === undefined) return null;
        return this.now() - last >= quietMs ? last : null;
      },
      what,
      timeoutMs,
    );
  }

  /** Waits until a message matching `match` has arrived at or after `from`; resolves with its time. */
  waitForMessage(match: (m: TimedMessage["message"]) => boolean, what: string, from = 0, timeoutMs = 30_000) {
    return this.wait(() => this.messageAt(match, from), what, timeoutMs);
  }

  private wait(read: () => number | null, what: string, timeoutMs: number): Promise<number> {
    const now = read();
    if (now !== null) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        const types = this.messages.slice(-8).map((m) => m.message.type);
        reject(new Error(`timed out waiting for ${what}; last messages: ${types.join(", ")}`));
      }, timeoutMs);
      const check = () => {
        const at = read();
        if (at === null) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(at);
      };
      this.waiters.add(check);
    });
  }
}
