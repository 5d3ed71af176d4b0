import { createRequire } from "node:module";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import type { VoiceActivityModel } from "./voice-activity.ts";

/** Silero v5 reads 512-sample windows at 16 kHz, each with the previous window's last 64 samples. */
const WINDOW = 512;
const CONTEXT = 64;
const INPUT = CONTEXT + WINDOW;
const STATE = 2 * 128;
/** Windows quieter than this (RMS, full scale 1) are silence without asking the model (-60 dBFS). */
const SILENCE_RMS = 0.001;
const SILENCE_ENERGY = SILENCE_RMS * SILENCE_RMS * WINDOW;
const MAX_BATCH = 128;
/**
 * While several calls run, a window waits up to this long for other calls' windows to run with it.
 * A run costs ≈150 µs of CPU for one window and ≈70 µs a window from 16 up: calls' 20 ms frames
 * arrive spread over time, so without waiting most runs held one or two windows. The wait delays
 * a probability by at most this much (the detector's pause is 150–300 ms); audio goes on to the
 * recogniser before the model is asked, so it is not held.
 */
const GATHER_MS = 8;
/** This many waiting windows run at once, without waiting further. */
const FULL_BATCH = 32;

interface Pending {
  /** Context and window, INPUT samples. */
  input: Float32Array;
  /** The detector's recurrent state: read when the batch runs, overwritten with the next state. */
  state: Float32Array;
  resolve: (probability: number) => void;
  reject: (error: unknown) => void;
}

/**
 * One ONNX session for the process, shared by every call. Windows that arrive close together run
 * as one batch (the model takes a batch dimension, state [2, B, 128]): one inference for many
 * calls costs far less than one each.
 */
class SileroRuntime {
  private queue: Pending[] = [];
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  /** Detectors created and not yet closed: with one, there is nobody to wait for. */
  live = 0;

  constructor(
    private readonly session: InferenceSession,
    private readonly T: typeof Tensor,
    private readonly rate: Tensor,
  ) {}

  infer(input: Float32Array, state: Float32Array): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ input, state, resolve, reject });
      if (this.running) return;
      if (this.live <= 1 || this.queue.length >= FULL_BATCH) {
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        this.running = true;
        setImmediate(() => void this.drain());
      } else {
        this.timer ??= setTimeout(() => {
          this.timer = null;
          this.running = true;
          void this.drain();
        }, GATHER_MS);
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        this.settle(batch, await this.run(batch));
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
    this.running = false;
  }

  private run(batch: Pending[]) {
    const size = batch.length;
    const input = new Float32Array(size * INPUT);
    const state = new Float32Array(STATE * size);
    for (let b = 0; b < size; b++) {
      const p = batch[b] as Pending;
      input.set(p.input, b * INPUT);
      state.set(p.state.subarray(0, 128), b * 128);
      state.set(p.state.subarray(128), (size + b) * 128);
    }
    return this.session.run({
      input: new this.T("float32", input, [size, INPUT]),
      state: new this.T("float32", state, [2, size, 128]),
      sr: this.rate,
    });
  }

  private settle(batch: Pending[], out: InferenceSession.OnnxValueMapType): void {
    const output = out.output?.data;
    const stateN = out.stateN?.data;
    if (!(output instanceof Float32Array) || !(stateN instanceof Float32Array)) {
      throw new Error("Silero VAD model returned unexpected outputs");
    }
    const size = batch.length;
    for (let b = 0; b < size; b++) {
      const p = batch[b] as Pending;
      p.state.set(stateN.subarray(b * 128, b * 128 + 128), 0);
      p.state.set(stateN.subarray((size + b) * 128, (size + b) * 128 + 128), 128);
      p.resolve(output[b] ?? 0);
    }
  }
}

let runtime: Promise<SileroRuntime> | null = null;

function loadRuntime(): Promise<SileroRuntime> {
  runtime ??= (async () => {
    const ort = await import("onnxruntime-node");
    const require = createRequire(import.meta.url);
    const modelPath = require.resolve("@ricky0123/vad-web/dist/silero_vad_v5.onnx");
    const session = await ort.InferenceSession.create(modelPath, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: "sequential",
      graphOptimizationLevel: "all",
    });
    return new SileroRuntime(session, ort.Tensor, new ort.Tensor("int64", BigInt64Array.from([16_000n]), []));
  })();
  runtime.catch(() => {
    runtime = null;
  });
  return runtime;
}

/** The Silero neural voice activity detector (v5) on onnxruntime-node, with its own recurrent state per call. */
export class SileroVad implements VoiceActivityModel {
  readonly name = "silero-v5";
  private readonly state = new Float32Array(STATE);
  /** The window being filled, after the previous window's last CONTEXT samples (the model's input). */
  private input = new Float32Array(INPUT);
  private filled = 0;
  private probability = 0;
  private closed = false;

  private constructor(private readonly rt: SileroRuntime) {
    rt.live += 1;
  }

  /** Loads the model (once per process) and returns a detector with fresh state. */
  static async create(): Promise<SileroVad> {
    return new SileroVad(await loadRuntime());
  }

  /**
   * Buffers the frame; runs the model on every complete 512-sample window; returns the latest
   * probability — at once (no promise) when no window completed or it was digital silence, as for
   * most frames.
   */
  process(frame: Int16Array): number | Promise<number> {
    let pending: Promise<number> | null = null;
    let offset = 0;
    while (offset < frame.length) {
      const take = Math.min(frame.length - offset, WINDOW - this.filled);
      const input = this.input;
      const at = CONTEXT + this.filled;
      for (let i = 0; i < take; i++) input[at + i] = (frame[offset + i] as number) / 32768;
      this.filled += take;
      offset += take;
      if (this.filled < WINDOW) break;
      this.filled = 0;
      const window = input;
      // The next window starts with this one's last CONTEXT samples.
      this.input = new Float32Array(INPUT);
      this.input.set(window.subarray(INPUT - CONTEXT), 0);
      pending = pending ? pending.then(() => this.runWindow(window)) : this.runWindowNow(window);
    }
    return pending ?? this.probability;
  }

  reset(): void {
    this.state.fill(0);
    this.input = new Float32Array(INPUT);
    this.filled = 0;
    this.probability = 0;
  }

  close(): void {
    this.filled = 0;
    if (this.closed) return;
    this.closed = true;
    this.rt.live -= 1;
  }

  /** Digital silence (a muted or noise-suppressed microphone) needs no model run. */
  private runWindowNow(window: Float32Array): Promise<number> | null {
    let energy = 0;
    for (let i = CONTEXT; i < INPUT; i++) energy += (window[i] as number) * (window[i] as number);
    if (energy < SILENCE_ENERGY) {
      this.probability = 0;
      return null;
    }
    return this.rt.infer(window, this.state).then((probability) => {
      this.probability = probability;
      return probability;
    });
  }

  private runWindow(window: Float32Array): Promise<number> {
    return this.runWindowNow(window) ?? Promise.resolve(0);
  }
}
