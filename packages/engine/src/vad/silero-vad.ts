import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
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

type WorkerReply =
  | { ready: true }
  | { failed: string }
  | { id: number; output: Float32Array; stateN: Float32Array }
  | { id: number; error: string };

/**
 * The model's thread: one ONNX session, one batch at a time. Plain JavaScript in a string, so it
 * runs the same from the TypeScript sources and from the server's bundle (no file to find).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const ort = require(workerData.ort);
(async () => {
  const session = await ort.InferenceSession.create(workerData.model, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  });
  const sr = new ort.Tensor("int64", BigInt64Array.from([16000n]), []);
  parentPort.on("message", async ({ id, size, input, state }) => {
    try {
      const out = await session.run({
        input: new ort.Tensor("float32", input, [size, ${INPUT}]),
        state: new ort.Tensor("float32", state, [2, size, 128]),
        sr,
      });
      const output = Float32Array.from(out.output.data);
      const stateN = Float32Array.from(out.stateN.data);
      parentPort.postMessage({ id, output, stateN }, [output.buffer, stateN.buffer]);
    } catch (error) {
      parentPort.postMessage({ id, error: String((error && error.message) || error) });
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((error) => parentPort.postMessage({ failed: String((error && error.message) || error) }));
`;

/**
 * One model for the process, shared by every call, on a thread of its own: a batch of windows
 * takes milliseconds of CPU, which on the main thread would hold every call's audio and sockets
 * back that long (and keep the process on one core). Windows that arrive close together run as
 * one batch (the model takes a batch dimension, state [2, B, 128]): one inference for many calls
 * costs far less than one each. One batch is in flight at a time; windows that arrive meanwhile
 * form the next.
 */
class SileroRuntime {
  private queue: Pending[] = [];
  private inFlight: { id: number; batch: Pending[] } | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** When the oldest waiting window arrived. */
  private oldestAt = 0;
  private nextId = 0;
  /** Detectors created and not yet closed: with one, there is nobody to wait for. */
  live = 0;

  constructor(
    private readonly worker: Worker,
    private readonly onBroken: () => void,
  ) {
    worker.on("message", (reply: WorkerReply) => this.onReply(reply));
    worker.on("error", (error) => this.fail(error));
    worker.on("exit", (code) => this.fail(new Error(`Silero VAD thread exited (${code})`)));
    // Idle, the thread never keeps the process alive (a bench, a CLI run, a server whose calls are
    // over would wait on it); a batch in flight does, like any other pending I/O. A listener added
    // to a worker refs its port again, so this comes after them.
    worker.unref();
  }

  infer(input: Float32Array, state: Float32Array): Promise<number> {
    return new Promise((resolve, reject) => {
      if (this.queue.length === 0) this.oldestAt = performance.now();
      this.queue.push({ input, state, resolve, reject });
      if (!this.inFlight) this.schedule();
    });
  }

  /**
   * Sends the waiting windows now if there are enough of them, or nobody else to wait for;
   * otherwise once the oldest has waited GATHER_MS. Each batch is a message to the thread and
   * back (a wake-up of each side), so few full batches cost less than many small ones.
   */
  private schedule(): void {
    if (this.queue.length === 0) return;
    if (this.live <= 1 || this.queue.length >= FULL_BATCH) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.dispatch();
      return;
    }
    this.timer ??= setTimeout(
      () => {
        this.timer = null;
        if (!this.inFlight) this.dispatch();
      },
      Math.max(0, GATHER_MS - (performance.now() - this.oldestAt)),
    );
  }

  private dispatch(): void {
    const batch = this.queue.splice(0, MAX_BATCH);
    const size = batch.length;
    if (size === 0) return;
    // Windows left behind (more than a batch) have waited about as long as these.
    this.oldestAt = performance.now() - GATHER_MS;
    const input = new Float32Array(size * INPUT);
    const state = new Float32Array(STATE * size);
    for (let b = 0; b < size; b++) {
      const p = batch[b] as Pending;
      input.set(p.input, b * INPUT);
      state.set(p.state.subarray(0, 128), b * 128);
      state.set(p.state.subarray(128), (size + b) * 128);
    }
    const id = ++this.nextId;
    this.inFlight = { id, batch };
    this.worker.ref();
    this.worker.postMessage({ id, size, input, state }, [input.buffer, state.buffer]);
  }

  private onReply(reply: WorkerReply): void {
    if (!("id" in reply) || reply.id !== this.inFlight?.id) return;
    const { batch } = this.inFlight;
    this.inFlight = null;
    if ("error" in reply) {
      for (const p of batch) p.reject(new Error(`Silero VAD failed: ${reply.error}`));
    } else {
      const { output, stateN } = reply;
      const size = batch.length;
      for (let b = 0; b < size; b++) {
        const p = batch[b] as Pending;
        p.state.set(stateN.subarray(b * 128, b * 128 + 128), 0);
        p.state.set(stateN.subarray((size + b) * 128, (size + b) * 128 + 128), 128);
        p.resolve(output[b] ?? 0);
      }
    }
    // Windows that arrived during the run go once the oldest has waited a gathering's time.
    this.schedule();
    if (!this.inFlight) this.worker.unref();
  }

  /** The thread is gone: every waiting window fails, and the next detector loads a new one. */
  private fail(error: Error): void {
    this.onBroken();
    const waiting = [...(this.inFlight?.batch ?? []), ...this.queue.splice(0)];
    this.inFlight = null;
    for (const p of waiting) p.reject(error);
  }
}

let runtime: Promise<SileroRuntime> | null = null;

function loadRuntime(): Promise<SileroRuntime> {
  runtime ??= new Promise<SileroRuntime>((resolve, reject) => {
    const require = createRequire(import.meta.url);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        ort: require.resolve("onnxruntime-node"),
        model: require.resolve("@ricky0123/vad-web/dist/silero_vad_v5.onnx"),
      },
    });
    const onStart = (reply: WorkerReply) => {
      if ("ready" in reply) {
        worker.off("message", onStart);
        worker.off("error", onError);
        const loaded = runtime;
        resolve(
          new SileroRuntime(worker, () => {
            if (runtime === loaded) runtime = null;
          }),
        );
      } else if ("failed" in reply) {
        onError(new Error(reply.failed));
      }
    };
    const onError = (error: Error) => {
      worker.off("message", onStart);
      void worker.terminate();
      reject(error);
    };
    worker.on("message", onStart);
    worker.once("error", onError);
  });
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
