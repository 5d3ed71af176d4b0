import type { Clock } from "../clock/clock.ts";

/** 20 ms at 16 kHz: the frame the transports take. */
const FRAME_SAMPLES = 320;
const FRAME_MS = 20;

/**
 * Plays the assistant's audio, which a realtime model sends faster than real time, as 20 ms
 * frames paced by the clock, and counts what each item has actually played: a caller barging in
 * truncates the model's item at that count, not at what was received.
 */
export class PacedPlayout {
  private readonly queue: Array<{ itemId: string; pcm: Int16Array; samples: number }> = [];
  /**
   * The tail of the last chunk, short of a frame: it waits for the next chunk of its item so
   * that chunks join without padding, and is played padded only when nothing else is queued.
   */
  private partial: { itemId: string; pcm: Int16Array } | null = null;
  private readonly played = new Map<string, number>();
  private timer: unknown = null;
  private readonly listeners: Array<(pcm: Int16Array) => void> = [];

  constructor(
    private readonly clock: Clock,
    /** Called when the queue runs dry after playing: the assistant has finished speaking. */
    private readonly onDrained: () => void,
    /** Called as each frame is handed out, with the item it belongs to (turn metrics). */
    private readonly onPlayed: (itemId: string) => void = () => undefined,
  ) {}

  onFrame(listener: (pcm: Int16Array) => void): void {
    this.listeners.push(listener);
  }

  /** Queues audio of `itemId`; playback starts at once when nothing is playing. */
  push(itemId: string, pcm: Int16Array): void {
    let audio = pcm;
    if (this.partial && this.partial.itemId === itemId) {
      audio = new Int16Array(this.partial.pcm.length + pcm.length);
      audio.set(this.partial.pcm);
      audio.set(pcm, this.partial.pcm.length);
      this.partial = null;
    } else if (this.partial) {
      this.queuePartial();
    }
    const whole = audio.length - (audio.length % FRAME_SAMPLES);
    for (let at = 0; at < whole; at += FRAME_SAMPLES) {
      this.queue.push({ itemId, pcm: audio.slice(at, at + FRAME_SAMPLES), samples: FRAME_SAMPLES });
    }
    if (whole < audio.length) this.partial = { itemId, pcm: audio.slice(whole) };
    if (this.timer === null) {
      this.playOne();
      this.timer = this.clock.setInterval(() => this.playOne(), FRAME_MS);
    }
  }

  /** Milliseconds of `itemId` handed to the transport so far. */
  playedMs(itemId: string): number {
    return ((this.played.get(itemId) ?? 0) * 1000) / 16_000;
  }

  get playing(): boolean {
    return this.timer !== null;
  }

  /** Drops everything not yet played (a barge-in or the end of the call). */
  stop(): void {
    this.queue.length = 0;
    this.partial = null;
    if (this.timer !== null) this.clock.clearInterval(this.timer);
    this.timer = null;
  }

  private queuePartial(): void {
    if (!this.partial) return;
    const frame = new Int16Array(FRAME_SAMPLES);
    frame.set(this.partial.pcm);
    this.queue.push({ itemId: this.partial.itemId, pcm: frame, samples: this.partial.pcm.length });
    this.partial = null;
  }

  private playOne(): void {
    if (this.queue.length === 0) this.queuePartial();
    const next = this.queue.shift();
    if (!next) {
      this.stop();
      this.onDrained();
      return;
    }
    this.played.set(next.itemId, (this.played.get(next.itemId) ?? 0) + next.samples);
    for (const listener of this.listeners) listener(next.pcm);
    this.onPlayed(next.itemId);
  }
}
