import { type DataFrame, type Frame, isSystemFrame, type SystemFrame } from "./frames.ts";

type Output = (frame: Frame) => void;

/**
 * One stage of a pipeline. Data frames are processed one at a time, in order (an async `process`
 * holds the next frame back); system frames are handled at once, and an interruption drops the
 * data frames still waiting. Subclasses push results downstream with `push`.
 */
export abstract class FrameProcessor {
  private output: Output | null = null;
  private readonly queue: DataFrame[] = [];
  private draining = false;
  /** Bumped by every interruption, so in-flight work can tell it has gone stale. */
  protected generation = 0;

  /** Sends this processor's output into `next` and returns `next`, so links chain. */
  link<P extends FrameProcessor>(next: P): P {
    this.output = (frame) => next.queueFrame(frame);
    return next;
  }

  /** Receives this processor's output (the end of a pipeline, or a test harness). */
  onOutput(listener: Output): void {
    this.output = listener;
  }

  /** True when no data frame is waiting or being processed. */
  get idle(): boolean {
    return !this.draining && this.queue.length === 0;
  }

  /** Hands a frame to this processor (what the upstream stage calls). */
  queueFrame(frame: Frame): void {
    if (isSystemFrame(frame)) {
      if (frame.type === "interruption") {
        this.queue.length = 0;
        this.generation++;
      }
      this.handleSystem(frame);
      return;
    }
    this.queue.push(frame);
    if (!this.draining) void this.drain();
  }

  /** Handles one data frame; the default passes it on. */
  protected process(frame: DataFrame): void | Promise<void> {
    this.push(frame);
  }

  /** Handles a system frame synchronously; overrides must call `super` (or push the frame on). */
  protected handleSystem(frame: SystemFrame): void {
    this.push(frame);
  }

  /** Reports a failure in `process`; the default rethrows asynchronously so it is never silent. */
  protected onError(error: unknown): void {
    queueMicrotask(() => {
      throw error;
    });
  }

  protected push(frame: Frame): void {
    this.output?.(frame);
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      for (let frame = this.queue.shift(); frame; frame = this.queue.shift()) {
        try {
          // Only work that is really asynchronous is awaited: a stage that handled its frame at
          // once goes on to the next without a turn of the microtask queue (caller audio passes
          // several stages 50 times a second per call).
          const pending = this.process(frame);
          if (pending) await pending;
        } catch (error) {
          this.onError(error);
        }
      }
    } finally {
      this.draining = false;
    }
  }
}

/** A processor built from a function, for small stages and tests. */
export class FunctionProcessor extends FrameProcessor {
  constructor(private readonly fn: (frame: DataFrame, push: (frame: Frame) => void) => void | Promise<void>) {
    super();
  }

  protected override process(frame: DataFrame): void | Promise<void> {
    return this.fn(frame, (out) => this.push(out));
  }
}

/** Links processors in order and returns the first and last. */
export function pipeline(...stages: FrameProcessor[]): { head: FrameProcessor; tail: FrameProcessor } {
  const [head, ...rest] = stages;
  if (!head) throw new Error("A pipeline needs at least one processor");
  let tail = head;
  for (const stage of rest) tail = tail.link(stage);
  return { head, tail };
}
