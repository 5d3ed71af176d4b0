import { createRequire } from "node:module";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import type { VoiceActivityModel } from "./voice-activity.ts";

/** Silero v5 reads 512-sample windows at 16 kHz, each with the previous window's last 64 samples. */
const WINDOW = 512;
const CONTEXT = 64;
const STATE = 2 * 128;
/** Windows quieter than this (RMS, full scale 1) are silence without asking the model (-60 dBFS). */
const SILENCE_RMS = 0.001;
const MAX_BATCH = 128;

interface Pending {
  input: Float32Array;
  state: Float32Array;
  resolve: (result: { probability: number; state: Float32Array }) => void;
  reject: (error: unknown) => void;
}

/**
 * One ONNX session for the process, shared by every call. Windows that arrive in the same turn
 * of the event loop run as one batch (the model takes a batch dimension, state [2, B, 128]):
 * one inference for many calls costs far less than one each.
 */
class SileroRuntime {
  private queue: Pending[] = [];
  private running = false;

  constructor(
    private readonly session: InferenceSession,
    private readonly T: typeof Tensor,
    private readonly rate: Tensor,
  ) {}

  infer(input: Float32Array, state: Float32Array): Promise<{ probability: number; state: Float32Array }> {
    return new Promise((resolve, reject) => {
      this.queue.push({ input, state, resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
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
    const input = new Float32Array(size * (CONTEXT + WINDOW));
    const state = new Float32Array(STATE * size);
    batch.forEach((p, b) => {
      input.set(p.input, b * (CONTEXT + WINDOW));
      state.set(p.state.subarray(0, 128), b * 128);
      state.set(p.state.subarray(128), (size + b) * 128);
    });
    return this.session.run({
      input: new this.T("float32", input, [size, CONTEXT + WINDOW]),
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
    batch.forEach((p, b) => {
      const next = new Float32Array(STATE);
      next.set(stateN.subarray(b * 128, b * 128 + 128), 0);
      next.set(stateN.subarray((size + b) * 128, (size + b) * 128 + 128), 128);
      p.resolve({ probability: output[b] ?? 0, state: next });
    });
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
  private state: Float32Array = new Float32Array(STATE);
  private context = new Float32Array(CONTEXT);
  private pending: Float32Array = new Float32Array(WINDOW * 2);
  private filled = 0;
  private probability = 0;

  private constructor(private readonly rt: SileroRuntime) {}

  /** Loads the model (once per process) and returns a detector with fresh state. */
  static async create(): Promise<SileroVad> {
    return new SileroVad(await loadRuntime());
  }

  /** Buffers the frame; runs the model on every complete 512-sample window; returns the latest probability. */
  async process(frame: Int16Array): Promise<number> {
    if (this.filled + frame.length > this.pending.length) {
      const grown = new Float32Array((this.filled + frame.length) * 2);
      grown.set(this.pending.subarray(0, this.filled));
      this.pending = grown;
    }
    for (let i = 0; i < frame.length; i++) this.pending[this.filled + i] = (frame[i] as number) / 32768;
    this.filled += frame.length;
    while (this.filled >= WINDOW) {
      this.probability = await this.runWindow(this.pending.slice(0, WINDOW));
      this.pending.copyWithin(0, WINDOW, this.filled);
      this.filled -= WINDOW;
    }
    return this.probability;
  }

  reset(): void {
    this.state = new Float32Array(STATE);
    this.context = new Float32Array(CONTEXT);
    this.filled = 0;
    this.probability = 0;
  }

  close(): void {
    this.filled = 0;
  }

  private async runWindow(window: Float32Array): Promise<number> {
    const input = new Float32Array(CONTEXT + WINDOW);
    input.set(this.context);
    input.set(window, CONTEXT);
    this.context = window.slice(WINDOW - CONTEXT);
    let energy = 0;
    for (const s of window) energy += s * s;
    // Digital silence (a muted or noise-suppressed microphone) needs no model run.
    if (Math.sqrt(energy / WINDOW) < SILENCE_RMS) return 0;
    const result = await this.rt.infer(input, this.state);
    this.state = result.state;
    return result.probability;
  }
}
