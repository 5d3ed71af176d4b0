import type { FrameProcessor } from "../src/frames/frame-processor.ts";
import type { Frame, FrameOf, FrameType } from "../src/frames/frames.ts";

/** Lets pending promises, async iterators and I/O callbacks run. */
export async function flushAsync(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Drives one processor (or the head of a chain) with input frames and collects what comes out
 * of `tail`, so a test reads as "these frames in, these frames out".
 */
export class FrameHarness {
  readonly output: Frame[] = [];

  constructor(
    readonly head: FrameProcessor,
    readonly tail: FrameProcessor = head,
  ) {
    tail.onOutput((frame) => this.output.push(frame));
  }

  /** Queues frames in order, then waits until the processors have settled. */
  async send(...frames: Frame[]): Promise<void> {
    for (const frame of frames) this.head.queueFrame(frame);
    await this.settle();
  }

  /** Waits until the output stops changing and the head is idle. */
  async settle(maxRounds = 200): Promise<void> {
    let seen = -1;
    for (let i = 0; i < maxRounds; i++) {
      await flushAsync(1);
      if (this.head.idle && this.tail.idle && seen === this.output.length) return;
      seen = this.output.length;
    }
  }

  /** The types of the frames out, in order. */
  types(): FrameType[] {
    return this.output.map((frame) => frame.type);
  }

  /** The frames out of one type. */
  ofType<T extends FrameType>(type: T): FrameOf<T>[] {
    return this.output.filter((frame): frame is FrameOf<T> => frame.type === type);
  }

  clear(): void {
    this.output.length = 0;
  }
}
