import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { concatPcm } from "../audio/pcm.ts";
import { encodeWav } from "../audio/wav.ts";
import { ENGINE_SAMPLE_RATE } from "../constants.ts";
import { ProviderError } from "../providers/provider-error.ts";
import type { SttOpenOptions, SttProvider, SttSession } from "../providers/types.ts";

const BINARY = "pocketsphinx_continuous";
/** Audio kept between finalizations: the recogniser only ever needs the last utterance. */
const MAX_BUFFER_SECONDS = 30;
/** Shorter than this is a click, not an utterance. */
const MIN_UTTERANCE_SECONDS = 0.2;
const RUN_TIMEOUT_MS = 30_000;

let available: boolean | null = null;

/** True when the `pocketsphinx_continuous` binary (Debian package pocketsphinx) is on the PATH. */
export function pocketsphinxAvailable(): boolean {
  available ??= (process.env.PATH ?? "").split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, BINARY), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  return available;
}

function recognise(wavPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      BINARY,
      ["-infile", wavPath, "-logfn", "/dev/null"],
      { timeout: RUN_TIMEOUT_MS, maxBuffer: 1 << 20 },
      (error, stdout) => {
        if (error) reject(new ProviderError("local", `pocketsphinx failed: ${error.message}`, false));
        else
          resolve(
            stdout
              .split("\n")
              .map((l) => l.trim())
              .filter(Boolean)
              .join(" "),
          );
      },
    );
  });
}

/**
 * The key-free local recogniser: each utterance (audio up to `finalize()`) is written to a WAV file
 * and decoded by CMU PocketSphinx. English only, and weak on free speech; for trying Parley
 * without keys, not for production calls.
 */
export class PocketsphinxStt implements SttProvider {
  readonly id = "local";
  readonly streaming = false;

  constructor(readonly config: Record<string, unknown> = {}) {}

  async open(options: SttOpenOptions): Promise<SttSession> {
    if (!pocketsphinxAvailable()) {
      throw new ProviderError(
        "local",
        `${BINARY} is not installed. The local speech recogniser needs the pocketsphinx package (apt-get install pocketsphinx pocketsphinx-en-us), or choose a cloud transcriber.`,
        false,
      );
    }
    const dir = await mkdtemp(path.join(tmpdir(), "parley-sphinx-"));
    let chunks: Int16Array[] = [];
    let buffered = 0;
    let queue = Promise.resolve();
    let counter = 0;
    let closed = false;
    const decode = async (pcm: Int16Array) => {
      const file = path.join(dir, `utterance-${++counter}.wav`);
      await writeFile(file, encodeWav({ sampleRate: ENGINE_SAMPLE_RATE, channels: [pcm] }));
      try {
        const text = await recognise(file);
        if (!closed && !options.signal?.aborted) options.onTranscript({ type: "final", text });
      } finally {
        await rm(file, { force: true });
      }
    };
    return {
      sendAudio: (pcm) => {
        chunks.push(pcm.slice());
        buffered += pcm.length;
        while (buffered > MAX_BUFFER_SECONDS * ENGINE_SAMPLE_RATE && chunks.length > 1) {
          buffered -= (chunks.shift() as Int16Array).length;
        }
      },
      finalize: () => {
        const pcm = concatPcm(chunks);
        chunks = [];
        buffered = 0;
        if (pcm.length < MIN_UTTERANCE_SECONDS * ENGINE_SAMPLE_RATE) {
          options.onTranscript({ type: "final", text: "" });
          return;
        }
        queue = queue
          .then(() => decode(pcm))
          .catch((error: unknown) => {
            if (!closed) options.onError(error instanceof Error ? error : new Error(String(error)));
          });
      },
      close: async () => {
        await queue; // an utterance already finalized is still delivered
        closed = true;
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
}
