import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { ProviderError } from "../provider-error.ts";

const BINARY = "pocketsphinx_batch";
const MODEL = "/usr/share/pocketsphinx/model/en-us";
/** Warm recognisers shared by every call: loading the model is most of a cold run's CPU. */
const POOL_SIZE = 2;
const RUN_TIMEOUT_MS = 30_000;
/** "<words> (<utterance id> <score>)": the batch recogniser's answer for one control-file line. */
const HYPOTHESIS = /^(.*?)\s*\((utt-\d+) -?\d+\)$/;

interface Job {
  resolve(text: string): void;
  reject(error: Error): void;
  file: string;
  timer: NodeJS.Timeout;
}

/**
 * One long-lived `pocketsphinx_batch` reading its control file from a FIFO: each utterance is a raw
 * 16 kHz file named on one line, and its hypothesis comes back on stderr (unbuffered).
 */
class WarmRecogniser {
  private readonly jobs = new Map<string, Job>();
  private counter = 0;
  private dead = false;

  private constructor(
    private readonly dir: string,
    private readonly child: ChildProcess,
    private readonly control: WriteStream,
  ) {
    // Idle recognisers never keep the process alive.
    child.unref();
    const lines = createInterface({ input: child.stderr as NodeJS.ReadableStream });
    lines.on("line", (line) => this.onLine(line));
    child.once("exit", () => this.fail(new ProviderError("local", "the pocketsphinx recogniser stopped", true)));
    control.on("error", (error) => this.fail(error));
  }

  static async start(): Promise<WarmRecogniser> {
    const dir = await mkdtemp(path.join(tmpdir(), "parley-sphinx-"));
    const fifo = path.join(dir, "control");
    await new Promise<void>((resolve, reject) =>
      spawn("mkfifo", [fifo]).once("exit", (code) => (code === 0 ? resolve() : reject(new Error("mkfifo failed")))),
    );
    const child = spawn(
      BINARY,
      [
        ...["-hmm", `${MODEL}/en-us`, "-lm", `${MODEL}/en-us.lm.bin`, "-dict", `${MODEL}/cmudict-en-us.dict`],
        ...["-ctl", fifo, "-cepdir", dir, "-cepext", ".raw", "-adcin", "yes"],
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    // Opening the FIFO's write end waits for the recogniser to open its read end.
    return new WarmRecogniser(dir, child, createWriteStream(fifo));
  }

  get load(): number {
    return this.dead ? Number.POSITIVE_INFINITY : this.jobs.size;
  }

  get alive(): boolean {
    return !this.dead;
  }

  async recognise(pcm: Int16Array): Promise<string> {
    const id = `utt-${++this.counter}`;
    const file = path.join(this.dir, `${id}.raw`);
    await writeFile(file, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => this.finish(id, new ProviderError("local", "pocketsphinx timed out", true)),
        RUN_TIMEOUT_MS,
      );
      timer.unref();
      this.jobs.set(id, { resolve, reject, file, timer });
      this.control.write(`${id}\n`);
    });
  }

  private onLine(line: string): void {
    const match = HYPOTHESIS.exec(line.trim());
    if (match?.[2]) this.finish(match[2], match[1] ?? "");
  }

  private finish(id: string, outcome: string | Error): void {
    const job = this.jobs.get(id);
    if (!job) return;
    this.jobs.delete(id);
    clearTimeout(job.timer);
    void rm(job.file, { force: true });
    if (typeof outcome === "string") job.resolve(outcome.trim());
    else job.reject(outcome);
  }

  private fail(error: Error): void {
    if (this.dead) return;
    this.dead = true;
    for (const id of [...this.jobs.keys()]) this.finish(id, error);
    this.child.kill();
    this.control.destroy();
    void rm(this.dir, { recursive: true, force: true });
  }
}

const pool: Promise<WarmRecogniser>[] = [];

/** How many recogniser processes are running (tests). */
export const warmRecognisers = () => pool.length;

/** Decodes one utterance (16 kHz mono PCM) on the least busy warm recogniser, starting one if needed. */
export async function recogniseWarm(pcm: Int16Array): Promise<string> {
  const ready = await Promise.allSettled(pool);
  // A recogniser that died (or never started) is replaced on the next utterance.
  for (let i = pool.length - 1; i >= 0; i -= 1) {
    const entry = ready[i];
    if (entry?.status === "rejected" || (entry?.status === "fulfilled" && !entry.value.alive)) pool.splice(i, 1);
  }
  const live = (await Promise.all(pool)).filter((r) => r.alive);
  const idle = live.find((r) => r.load === 0);
  if (idle || live.length >= POOL_SIZE) {
    const least = idle ?? live.reduce((a, b) => (b.load < a.load ? b : a));
    return least.recognise(pcm);
  }
  const started = WarmRecogniser.start();
  pool.push(started);
  return (await started).recognise(pcm);
}
