import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { ProviderError } from "../provider-error.ts";

const BINARY = "pocketsphinx_batch";
const MODEL = "/usr/share/pocketsphinx/model/en-us";
/** Warm recognisers shared by every call: loading the model is most of a cold run's CPU. */
const POOL_SIZE = 2;
/** How long one decode may take once a recogniser has it (time spent queued is not counted). */
const RUN_TIMEOUT_MS = 30_000;
/**
 * Caps on the search's work per frame (pocketsphinx's defaults: 30,000 active HMMs, no word cap),
 * keeping its default beams. Measured on 30 caller lines (clean, resampled and phone-band): 13%
 * fewer HMM channels searched, the same words on 29 lines (narrower beams, tried before, lost
 * words on phone-band audio). The cap only bites on the frames where the search spreads widest.
 */
const SEARCH_CAPS = ["-maxhmmpf", "10000", "-maxwpf", "20"];
/** "<words> (<utterance id> <score>)": the batch recogniser's answer for one control-file line. */
const HYPOTHESIS = /^(.*?)\s*\((utt-\d+) -?\d+\)$/;

interface Utterance {
  pcm: Int16Array;
  resolve(text: string): void;
  reject(error: Error): void;
}

interface Decoding {
  id: string;
  utterance: Utterance;
  file: string;
  timer: NodeJS.Timeout;
}

/**
 * One long-lived `pocketsphinx_batch` reading its control file from a FIFO: each utterance is a raw
 * 16 kHz file named on one line, and its hypothesis comes back on stderr (unbuffered). It is given
 * one utterance at a time, so nothing waits behind a long decode while another recogniser is free.
 */
class WarmRecogniser {
  private current: Decoding | null = null;
  private readonly answers: Socket;
  private counter = 0;
  private dead = false;

  private constructor(
    private readonly dir: string,
    private readonly child: ChildProcess,
    private readonly control: WriteStream,
    private readonly onFree: () => void,
  ) {
    // An idle recogniser never keeps the process alive (a bench, a CLI run, a server whose calls are
    // over would wait on it); one decoding does, like any request in flight: the pipe its answer
    // comes back on is ref'd only while an utterance is out.
    child.unref();
    this.answers = child.stderr as Socket;
    this.answers.unref();
    const lines = createInterface({ input: this.answers });
    lines.on("line", (line) => this.onLine(line));
    child.once("exit", () => this.fail(new ProviderError("local", "the pocketsphinx recogniser stopped", true)));
    control.on("error", (error) => this.fail(error));
  }

  static async start(onFree: () => void): Promise<WarmRecogniser> {
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
        ...SEARCH_CAPS,
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    // Opening the FIFO's write end waits for the recogniser to open its read end.
    return new WarmRecogniser(dir, child, createWriteStream(fifo), onFree);
  }

  get idle(): boolean {
    return !this.dead && this.current === null;
  }

  get alive(): boolean {
    return !this.dead;
  }

  /** Starts decoding `utterance`; the recogniser must be idle. */
  take(utterance: Utterance): void {
    const id = `utt-${++this.counter}`;
    const file = path.join(this.dir, `${id}.raw`);
    const timer = setTimeout(
      () => this.fail(new ProviderError("local", "pocketsphinx timed out", true)),
      RUN_TIMEOUT_MS,
    );
    timer.unref();
    this.current = { id, utterance, file, timer };
    this.answers.ref();
    const { pcm } = utterance;
    writeFile(file, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength)).then(
      () => {
        if (this.current?.id === id) this.control.write(`${id}\n`);
      },
      (error: unknown) => this.finish(id, error instanceof Error ? error : new Error(String(error))),
    );
  }

  private onLine(line: string): void {
    const match = HYPOTHESIS.exec(line.trim());
    if (match?.[2]) this.finish(match[2], match[1] ?? "");
  }

  private finish(id: string, outcome: string | Error): void {
    const decoding = this.current;
    if (decoding?.id !== id) return;
    this.current = null;
    this.answers.unref();
    clearTimeout(decoding.timer);
    void rm(decoding.file, { force: true });
    if (typeof outcome === "string") decoding.utterance.resolve(outcome.trim());
    else decoding.utterance.reject(outcome);
    this.onFree();
  }

  private fail(error: Error): void {
    if (this.dead) return;
    this.dead = true;
    if (this.current) this.finish(this.current.id, error);
    this.child.kill();
    this.control.destroy();
    void rm(this.dir, { recursive: true, force: true });
  }
}

/** Utterances no recogniser has taken yet, oldest first: every call's turns wait in one line. */
const waiting: Utterance[] = [];
const pool: WarmRecogniser[] = [];
let starting = 0;

/** How many recogniser processes are running or starting (tests). */
export const warmRecognisers = () => pool.length + starting;

/** Hands the oldest waiting utterances to idle recognisers, starting recognisers while fewer than POOL_SIZE. */
function dispatch(): void {
  // A recogniser that died is replaced when there is work for it.
  for (let i = pool.length - 1; i >= 0; i -= 1) if (!pool[i]?.alive) pool.splice(i, 1);
  for (const recogniser of pool) {
    const next = recogniser.idle ? waiting.shift() : undefined;
    if (next) recogniser.take(next);
  }
  while (waiting.length > starting && pool.length + starting < POOL_SIZE) startRecogniser();
}

function startRecogniser(): void {
  starting += 1;
  WarmRecogniser.start(dispatch).then(
    (recogniser) => {
      starting -= 1;
      pool.push(recogniser);
      dispatch();
    },
    (error: unknown) => {
      starting -= 1;
      // With no recogniser to wait for, the utterances fail rather than wait for ever.
      if (pool.length + starting === 0) {
        const failure = new ProviderError("local", `pocketsphinx did not start: ${String(error)}`, true);
        for (const utterance of waiting.splice(0)) utterance.reject(failure);
      }
    },
  );
}

/**
 * Starts a recogniser if none is running, so the first utterance does not also pay for loading
 * the model (a call opens its recogniser while its greeting plays).
 */
export function warmUpRecogniser(): void {
  if (pool.length + starting === 0) startRecogniser();
}

/** Utterances waiting for a recogniser (tests). */
export const waitingUtterances = () => waiting.length;

/**
 * Decodes one utterance (16 kHz mono PCM) on a warm recogniser: the first free one, after every
 * utterance queued before it (oldest first, so no call's turn is passed over).
 */
export function recogniseWarm(pcm: Int16Array): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    waiting.push({ pcm, resolve, reject });
    dispatch();
  });
}
