/**
 * When each chunk of a real-time audio stream arrived, from when it was handled.
 *
 * A socket or RTP stream carries audio at the pace it is spoken. A chunk handled late — the event
 * loop was busy (a local voice synthesizing, a GC pause, the process not scheduled) — is handled
 * in a burst with the chunks queued behind it, and dating it by its handling would move the end
 * of the caller's speech later and shorten the wait the call reports. So the stream keeps a
 * schedule: the earliest moment it can have started, given that no chunk arrives before it has
 * been spoken (handled time less the audio received so far, at its minimum). A chunk behind that
 * schedule is dated on it. A sender that paused (a muted microphone, a network outage) puts its
 * audio on a later schedule for good: a lag that lasts, rather than a backlog that catches up
 * within moments, moves the schedule.
 */

/** A chunk this far behind the schedule is socket jitter, not a backlog. */
const JITTER_MS = 60;
/**
 * How long a backlog may take to drain back onto the schedule; a lag that lasts longer is a sender
 * that paused (its chunks in between are dated on the old schedule: at most this much audio).
 */
const CATCH_UP_MS = 150;

export class StreamArrival {
  /** The earliest the stream can have started (ms, the caller's clock); null before the first chunk. */
  private start: number | null = null;
  /** Audio received so far, in ms. */
  private receivedMs = 0;
  /** Since when chunks have been behind the schedule (null: they are on it). */
  private lateSince: number | null = null;
  /** The earliest start the late chunks imply: the schedule of a sender that paused. */
  private lateStart = Number.POSITIVE_INFINITY;

  constructor(private readonly sampleRate: number) {}

  /** When a chunk of `samples` handled at `now` arrived: the time of its last sample. */
  arrivedAt(now: number, samples: number): number {
    this.receivedMs += (samples / this.sampleRate) * 1000;
    const start = now - this.receivedMs;
    if (this.start === null || start <= this.start) {
      this.start = start;
      this.lateSince = null;
      return now;
    }
    if (start - this.start <= JITTER_MS) {
      this.lateSince = null;
      return Math.min(now, this.start + this.receivedMs);
    }
    if (this.lateSince === null) {
      this.lateSince = now;
      this.lateStart = start;
    } else {
      this.lateStart = Math.min(this.lateStart, start);
    }
    if (now - this.lateSince > CATCH_UP_MS) {
      // Still behind after a backlog would have drained: the sender paused, and resumed later.
      this.start = this.lateStart;
      this.lateSince = null;
    }
    return Math.min(now, this.start + this.receivedMs);
  }
}
