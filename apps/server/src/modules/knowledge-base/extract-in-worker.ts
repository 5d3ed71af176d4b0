import { Worker } from "node:worker_threads";
import { DOCUMENT_LIMITS, type DocumentKind } from "@parley/contract";
import { bundledWorker } from "./bundled-worker.ts";
import type { Chunk } from "./chunking.ts";
import { ExtractionError } from "./extract/index.ts";
import type { ReadAnswer, ReadRequest } from "./extract-worker.ts";

export interface ReadChunks {
  kind: DocumentKind;
  pages: number;
  chunks: Chunk[];
}

/**
 * In the bundle (dist/main.js) the worker is dist/extract-worker.js, built beside main.js. From
 * source (tests, `npm run dev`) the worker's TypeScript is bundled the same way (see
 * bundled-worker.ts), once per process: a thread that registered tsx instead spent seconds of CPU
 * on its loader for every module of the document libraries, at every thread start.
 */
function workerEntry(): URL | Promise<URL> {
  if (!import.meta.url.endsWith(".ts")) return new URL("./extract-worker.js", import.meta.url);
  return bundledWorker(new URL("./extract-worker.ts", import.meta.url));
}

/** V8's heap limits of the reading thread; together with its stack they bound its memory. */
const RESOURCE_LIMITS = {
  maxOldGenerationSizeMb: DOCUMENT_LIMITS.readMemoryMb,
  maxYoungGenerationSizeMb: 32,
  stackSizeMb: 4,
};
/**
 * The thread is kept between files while uploads keep coming (starting one costs its libraries'
 * loading), closed once idle, and replaced after this many files so what a library caches does
 * not add up against the memory limit.
 */
const IDLE_CLOSE_MS = 30_000;
const FILES_PER_THREAD = 20;

const outOfMemory = () =>
  new ExtractionError(
    `Reading the document needed more than the ${DOCUMENT_LIMITS.readMemoryMb} MB of memory one file may use. Split it into smaller files.`,
    "out_of_memory",
  );

const timedOut = () =>
  new ExtractionError(
    `Reading the document took longer than the ${DOCUMENT_LIMITS.readSeconds / 60} minutes one file may take. Split it into smaller files.`,
    "timed_out",
  );

/** The answer as the job sees it: chunks, an ExtractionError (a limit, a bad file), or an Error to retry. */
function settleWith(answer: ReadAnswer): ReadChunks {
  if (answer.ok) return { kind: answer.kind, pages: answer.pages, chunks: answer.chunks };
  if (answer.code) throw new ExtractionError(answer.message, answer.code);
  throw new Error(`the document reader failed: ${answer.message}`);
}

/** One reading thread and the file it reads; a thread that fails a file (memory, deadline, crash) is discarded. */
class ReaderThread {
  private readonly worker: Worker;
  private pending: { id: number; resolve: (answer: ReadAnswer) => void; reject: (error: Error) => void } | null = null;
  private nextId = 0;
  files = 0;
  alive = true;

  constructor(entry: URL) {
    this.worker = new Worker(entry, { resourceLimits: RESOURCE_LIMITS });
    // An idle reader never keeps the process from exiting.
    this.worker.unref();
    this.worker.on("message", ({ id, answer }: { id: number; answer: ReadAnswer }) => {
      if (this.pending?.id !== id) return;
      const { resolve } = this.pending;
      this.pending = null;
      resolve(answer);
    });
    this.worker.on("error", (error: Error & { code?: string }) =>
      this.fail(
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? outOfMemory()
          : new Error(`the document reader failed: ${error.message}`),
      ),
    );
    this.worker.on("exit", (code) => this.fail(new Error(`the document reader stopped (exit code ${code})`)));
  }

  read(data: Buffer): Promise<ReadAnswer> {
    this.files += 1;
    this.nextId += 1;
    const id = this.nextId;
    // The thread gets its own copy, handed over rather than copied again.
    const copy = new Uint8Array(data);
    return new Promise<ReadAnswer>((resolve, reject) => {
      this.pending = { id, resolve, reject };
      const request: ReadRequest = { id, data: copy };
      this.worker.postMessage(request, [copy.buffer]);
    });
  }

  private fail(error: Error): void {
    this.alive = false;
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
    void this.worker.terminate();
  }

  close(): void {
    this.fail(new Error("the document reader was closed"));
  }
}

let thread: ReaderThread | null = null;
let idleTimer: NodeJS.Timeout | null = null;
/** Files are read one at a time: the server's worst case is itself plus one reader's memory limit. */
let queue: Promise<unknown> = Promise.resolve();

async function readOnThread(data: Buffer): Promise<ReadChunks> {
  if (idleTimer) clearTimeout(idleTimer);
  if (!thread?.alive || thread.files >= FILES_PER_THREAD) {
    thread?.close();
    thread = new ReaderThread(await workerEntry());
  }
  const reader = thread;
  let deadline: NodeJS.Timeout | undefined;
  try {
    const answer = await Promise.race([
      reader.read(data),
      new Promise<never>((_, reject) => {
        deadline = setTimeout(() => {
          reader.close();
          reject(timedOut());
        }, DOCUMENT_LIMITS.readSeconds * 1000);
      }),
    ]);
    return settleWith(answer);
  } finally {
    clearTimeout(deadline);
    idleTimer = setTimeout(() => {
      thread?.close();
      thread = null;
    }, IDLE_CLOSE_MS);
    idleTimer.unref();
  }
}

/**
 * Reads a file into chunks on a worker thread with a memory limit and a deadline, so the server
 * keeps answering while it runs and survives whatever the file does to its reader. A file that
 * needs more memory or time than allowed, or that breaks a DOCUMENT_LIMITS bound, is an
 * ExtractionError (it would do the same again); a reader that stopped for another reason is a
 * plain Error, which the job retries.
 */
export function extractInWorker(data: Buffer): Promise<ReadChunks> {
  const turn = queue.then(() => readOnThread(data));
  queue = turn.catch(() => undefined);
  return turn;
}
