import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { ProviderError } from "../provider-error.ts";

/**
 * eSpeak NG synthesises a whole reply in one synchronous WebAssembly call: about 1 ms per character
 * of text, so on the main thread one long sentence held up every other call's 20 ms audio frames.
 * It runs on worker threads instead — at most one per core, two at most: synthesis is short, and
 * each thread holds its own copy of the voice data.
 */
const MAX_THREADS = Math.min(2, availableParallelism());

/**
 * The thread's script, run as `node -e` runs one (no file to ship beside the bundle): eSpeak is
 * loaded from the address the main thread resolved, so the same code works from source and from
 * dist/main.js. Each request answers with the samples, their buffers moved, not copied.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const engine = import(workerData.moduleUrl).then(async (mod) => new (await mod.default()).eSpeakNGWorker());
parentPort.on("message", async ({ id, text, voice, rate }) => {
  try {
    const espeak = await engine;
    const chunks = [];
    espeak.set_voice(voice);
    espeak.set_rate(rate);
    // The samples view WebAssembly memory that the next callback reuses: copied.
    espeak.synthesize(text, (samples) => {
      if (samples && samples.length > 0) chunks.push(samples.slice());
    });
    parentPort.postMessage({ id, chunks }, chunks.map((c) => c.buffer));
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

interface Answer {
  id: number;
  chunks?: Int16Array[];
  error?: string;
}

interface Pending {
  resolve(chunks: Int16Array[]): void;
  reject(error: Error): void;
}

class SynthesisThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  alive = true;

  constructor(moduleUrl: string) {
    this.worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { moduleUrl } });
    this.worker.on("message", (answer: Answer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) this.worker.unref();
      if (answer.error !== undefined)
        waiting.reject(new ProviderError("local", `eSpeak failed: ${answer.error}`, true));
      else waiting.resolve(answer.chunks ?? []);
    });
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", (code) => this.fail(new Error(`the eSpeak thread exited (code ${code})`)));
    // An idle voice never keeps the process from exiting (a busy one does, like any request in
    // flight). After the listeners: adding a "message" listener refs the thread's port again.
    this.worker.unref();
  }

  get load(): number {
    return this.pending.size;
  }

  synthesize(text: string, voice: string, rate: number): Promise<Int16Array[]> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, text, voice, rate });
    });
  }

  private fail(error: Error): void {
    if (!this.alive) return;
    this.alive = false;
    const failure = new ProviderError("local", `the eSpeak thread stopped: ${error.message}`, true);
    for (const waiting of this.pending.values()) waiting.reject(failure);
    this.pending.clear();
    void this.worker.terminate();
  }
}

const threads: SynthesisThread[] = [];

/** Where eSpeak's module is, resolved from this file (from source, or from the server's bundle). */
const espeakModuleUrl = () =>
  pathToFileURL(createRequire(import.meta.url).resolve("@echogarden/espeak-ng-emscripten")).href;

/**
 * Synthesises `text` with eSpeak NG on the least busy thread (starting one while there are fewer
 * than MAX_THREADS and all are busy): 22,050 Hz mono samples, in the pieces eSpeak produced them.
 */
export function synthesizeOffThread(text: string, voice: string, rate: number): Promise<Int16Array[]> {
  for (let i = threads.length - 1; i >= 0; i -= 1) if (!threads[i]?.alive) threads.splice(i, 1);
  let thread = threads.find((t) => t.load === 0);
  if (!thread && threads.length < MAX_THREADS) {
    thread = new SynthesisThread(espeakModuleUrl());
    threads.push(thread);
  }
  thread ??= threads.reduce((a, b) => (b.load < a.load ? b : a));
  return thread.synthesize(text, voice, rate);
}
