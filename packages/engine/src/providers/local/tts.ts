/// <reference path="./espeak-module.d.ts" />
import type { EspeakWorker } from "@echogarden/espeak-ng-emscripten";
import type { TtsProviderConfig } from "@parley/contract";
import { TtsBase } from "../stage-bases.ts";
import type { AudioChunk, SynthesizeOptions } from "../types.ts";

/** eSpeak NG's native output rate; the pipeline resamples to 16 kHz. */
export const ESPEAK_SAMPLE_RATE = 22_050;
const DEFAULT_WORDS_PER_MINUTE = 175;

let worker: Promise<EspeakWorker> | null = null;

/** One WASM instance per process: synthesis is synchronous, so calls never overlap on it. */
function espeak(): Promise<EspeakWorker> {
  worker ??= import("@echogarden/espeak-ng-emscripten").then(async (mod) => {
    const m = await mod.default();
    return new m.eSpeakNGWorker();
  });
  worker.catch(() => {
    worker = null;
  });
  return worker;
}

/** The key-free local voice: eSpeak NG compiled to WebAssembly (robotic, but instant and offline). */
export class EspeakTts extends TtsBase {
  readonly id = "local";
  readonly model: string;
  readonly voice: string;
  private readonly rate: number;

  constructor(config: TtsProviderConfig) {
    super();
    this.model = config.model || "espeak-ng";
    this.voice = config.voice || config.language || "en-us";
    const speed = config.speed ?? 1;
    this.rate = Math.round(Math.min(450, Math.max(80, DEFAULT_WORDS_PER_MINUTE * speed)));
  }

  protected async *run(text: string, options: SynthesizeOptions): AsyncIterable<AudioChunk> {
    const engine = await espeak();
    if (options.signal?.aborted) return;
    const chunks: Int16Array[] = [];
    engine.set_voice(this.voice);
    engine.set_rate(this.rate);
    // Angle brackets would be read as markup.
    engine.synthesize(text.replace(/[<>]/g, " "), (samples) => {
      // The samples view WASM memory that the next callback reuses: copy them.
      if (samples && samples.length > 0) chunks.push(samples.slice());
    });
    for (const pcm of chunks) {
      if (options.signal?.aborted) return;
      yield { pcm, sampleRate: ESPEAK_SAMPLE_RATE };
    }
  }
}
