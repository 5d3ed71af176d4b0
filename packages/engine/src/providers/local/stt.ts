import { accessSync, constants } from "node:fs";
import path from "node:path";
import { concatPcm } from "../../audio/pcm.ts";
import { ENGINE_SAMPLE_RATE } from "../../constants.ts";
import { ProviderError } from "../provider-error.ts";
import { SttBase } from "../stage-bases.ts";
import type { SttOpenOptions, SttSession } from "../types.ts";
import { speechSpan } from "./speech-span.ts";
import { recogniseWarm, warmUpRecogniser } from "./sphinx-pool.ts";

const BINARY = "pocketsphinx_batch";
/** Audio kept between finalizations: the recogniser only ever needs the last utterance. */
const MAX_BUFFER_SECONDS = 30;
/** Shorter than this is a click, not an utterance. */
const MIN_UTTERANCE_SECONDS = 0.2;

let available: boolean | null = null;

/** True when the `pocketsphinx_batch` binary (Debian package pocketsphinx) is on the PATH. */
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

/**
 * The key-free local recogniser: each utterance (audio up to `finalize()`) is decoded by CMU
 * PocketSphinx on a warm recogniser shared by every call (sphinx-pool.ts). English only, weak on
 * free speech, no punctuation; for trying Parley without keys, not for production calls.
 */
export class PocketsphinxStt extends SttBase {
  readonly id = "local";
  readonly streaming = false;
  readonly punctuates = false;

  protected async run(options: SttOpenOptions): Promise<SttSession> {
    if (!pocketsphinxAvailable()) {
      throw new ProviderError(
        "local",
        `${BINARY} is not installed. The local speech recogniser needs the pocketsphinx package (apt-get install pocketsphinx pocketsphinx-en-us), or choose a cloud transcriber.`,
        false,
      );
    }
    warmUpRecogniser();
    let chunks: Int16Array[] = [];
    let buffered = 0;
    let delivered = Promise.resolve();
    let closed = false;
    const deliver = (text: string) => {
      if (!closed && !options.signal?.aborted) options.onTranscript({ type: "final", text });
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
        // Queued for a recogniser now, so it keeps its place among every call's utterances; its
        // words (or failure, held so it is not an unhandled rejection meanwhile) are delivered
        // after the call's earlier ones.
        const words = recogniseWarm(speechSpan(pcm)).then(
          (text) => () => deliver(text),
          (error: unknown) => () => {
            if (!closed) options.onError(error instanceof Error ? error : new Error(String(error)));
          },
        );
        delivered = delivered.then(async () => (await words)());
      },
      close: async () => {
        await delivered; // an utterance already finalized is still delivered
        closed = true;
      },
    };
  }
}
