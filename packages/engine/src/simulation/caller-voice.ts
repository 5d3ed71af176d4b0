import { rms } from "../audio/pcm.ts";
import { Reframer } from "../audio/reframer.ts";
import { Resampler } from "../audio/resample.ts";
import type { Clock } from "../clock/clock.ts";
import { AUDIBLE_RMS, ENGINE_SAMPLE_RATE, FRAME_MS, SAMPLES_PER_FRAME } from "../constants.ts";
import type { TtsProvider } from "../providers/types.ts";

/** After a stall longer than this, the stream skips ahead instead of sending a burst of old frames. */
const MAX_CATCH_UP_FRAMES = 50;

type Queued =
  | { kind: "frame"; pcm: Int16Array; onAudible: ((at: number) => void) | null }
  | { kind: "mark"; reached: () => void };

/** Node's timers would hold a finished test run's process open; the virtual clock's ids have no unref. */
function unref(handle: unknown): void {
  if (typeof handle === "object" && handle !== null && "unref" in handle && typeof handle.unref === "function") {
    handle.unref();
  }
}

/**
 * The caller's mouth: a real-time stream of 20 ms frames (silence unless a line is queued), paced by
 * a drift-corrected timer so the assistant receives audio as from a live microphone.
 */
export class CallerVoice {
  private queue: Queued[] = [];
  private timer: unknown = null;
  private running = false;
  private startedAt = 0;
  private sent = 0;

  constructor(
    private readonly clock: Clock,
    private readonly tts: TtsProvider,
    private readonly out: (pcm: Int16Array) => void,
    /** Runs after each tick's frames went out (the caller's waits are judged then). */
    private readonly afterTick: () => void,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.startedAt = this.clock.now();
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    // Whoever waits for the speech to go out learns it never will (and checks why).
    for (const item of this.queue) if (item.kind === "mark") item.reached();
    this.queue = [];
  }

  /**
   * Synthesizes `text` onto the end of the stream, as the voice produces it; resolves once all of
   * it is queued. `onAudible` gets the time each audible frame of it goes out.
   */
  async say(text: string, signal: AbortSignal, onAudible: (at: number) => void): Promise<void> {
    const framer = new Reframer(SAMPLES_PER_FRAME);
    let resampler = null as Resampler | null;
    const enqueue = (frame: Int16Array) => this.queue.push({ kind: "frame", pcm: frame, onAudible });
    for await (const chunk of this.tts.synthesize(text, { signal })) {
      if (signal.aborted) return;
      if (chunk.sampleRate === ENGINE_SAMPLE_RATE) {
        framer.push(chunk.pcm, enqueue);
        continue;
      }
      // One converter per stretch of a rate, so chunk edges do not click.
      if (resampler?.inRate !== chunk.sampleRate) {
        if (resampler) framer.push(resampler.flush(), enqueue);
        resampler = new Resampler(chunk.sampleRate, ENGINE_SAMPLE_RATE);
      }
      framer.push(resampler.process(chunk.pcm), enqueue);
    }
    if (resampler) framer.push(resampler.flush(), enqueue);
    if (framer.buffered > 0) framer.push(new Int16Array(SAMPLES_PER_FRAME - framer.buffered), enqueue);
  }

  /** Queues `ms` of silence (a pause inside a line). */
  pause(ms: number): void {
    const frames = Math.round(ms / FRAME_MS);
    for (let i = 0; i < frames; i++)
      this.queue.push({ kind: "frame", pcm: new Int16Array(SAMPLES_PER_FRAME), onAudible: null });
  }

  /** Resolves once everything queued so far has gone out. */
  drained(): Promise<void> {
    return new Promise((resolve) => {
      this.queue.push({ kind: "mark", reached: resolve });
      this.passMarks();
    });
  }

  private schedule(): void {
    const due = this.startedAt + (this.sent + 1) * FRAME_MS;
    this.timer = this.clock.setTimeout(() => this.tick(), Math.max(0, due - this.clock.now()));
    unref(this.timer);
  }

  private tick(): void {
    this.timer = null;
    if (!this.running) return;
    const due = Math.floor((this.clock.now() - this.startedAt) / FRAME_MS);
    if (due - this.sent > MAX_CATCH_UP_FRAMES) this.sent = due - MAX_CATCH_UP_FRAMES;
    while (this.running && this.sent < due) {
      this.sent++;
      this.sendNext();
    }
    if (this.running) this.afterTick();
    if (this.running) this.schedule();
  }

  private sendNext(): void {
    this.passMarks();
    const next = this.queue.shift();
    const pcm = next?.kind === "frame" ? next.pcm : new Int16Array(SAMPLES_PER_FRAME);
    if (next?.kind === "frame" && next.onAudible && rms(pcm) >= AUDIBLE_RMS) next.onAudible(this.clock.now());
    this.out(pcm);
    this.passMarks();
  }

  private passMarks(): void {
    while (this.queue[0]?.kind === "mark") {
      const mark = this.queue.shift();
      if (mark?.kind === "mark") mark.reached();
    }
  }
}
