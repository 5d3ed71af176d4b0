import { createRequire } from "node:module";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import type { VoiceActivityModel } from "./voice-activity.ts";

/** Silero v5 reads 512-sample windows at 16 kHz, each with the previous window's last 64 samples. */
const WINDOW = 512;
const CONTEXT = 64;

interface SileroRuntime {
  session: InferenceSession;
  Tensor: typeof Tensor;
  rate: Tensor;
}

let runtime: Promise<SileroRuntime> | null = null;

/** One ONNX session for the process: the model is stateless, each call carries its own state tensor. */
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
    return { session, Tensor: ort.Tensor, rate: new ort.Tensor("int64", BigInt64Array.from([16_000n]), []) };
  })();
  runtime.catch(() => {
    runtime = null;
  });
  return runtime;
}

/** The Silero neural voice activity detector (v5) on onnxruntime-node. */
export class SileroVad implements VoiceActivityModel {
  readonly name = "silero-v5";
  private state: Float32Array = new Float32Array(2 * 128);
  private readonly input = new Float32Array(CONTEXT + WINDOW);
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
      this.probability = await this.runWindow(this.pending.subarray(0, WINDOW));
      this.pending.copyWithin(0, WINDOW, this.filled);
      this.filled -= WINDOW;
    }
    return this.probability;
  }

  reset(): void {
    this.state = new Float32Array(2 * 128);
    this.input.fill(0);
    this.filled = 0;
    this.probability = 0;
  }

  close(): void {
    this.filled = 0;
  }

  private async runWindow(window: Float32Array): Promise<number> {
    const { session, Tensor: T, rate } = this.rt;
    this.input.copyWithin(0, WINDOW, WINDOW + CONTEXT); // last window's tail becomes the context
    this.input.set(window, CONTEXT);
    const feeds = {
      input: new T("float32", this.input.slice(), [1, CONTEXT + WINDOW]),
      state: new T("float32", this.state, [2, 1, 128]),
      sr: rate,
    };
    const out = await session.run(feeds);
    const state = out.stateN?.data;
    const output = out.output?.data;
    if (!(state instanceof Float32Array) || !(output instanceof Float32Array)) {
      throw new Error("Silero VAD model returned unexpected outputs");
    }
    this.state = state;
    return output[0] ?? 0;
  }
}
