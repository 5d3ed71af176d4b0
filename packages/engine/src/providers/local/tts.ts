import type { TtsProviderConfig } from "@parley/contract";
import { TtsBase } from "../stage-bases.ts";
import type { AudioChunk, SynthesizeOptions } from "../types.ts";
import { synthesizeOffThread } from "./espeak-threads.ts";

/** eSpeak NG's native output rate; the pipeline resamples to 16 kHz. */
export const ESPEAK_SAMPLE_RATE = 22_050;
const DEFAULT_WORDS_PER_MINUTE = 175;

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
    if (options.signal?.aborted) return;
    // Angle brackets would be read as markup.
    const chunks = await synthesizeOffThread(text.replace(/[<>]/g, " "), this.voice, this.rate);
    for (const pcm of chunks) {
      if (options.signal?.aborted) return;
      yield { pcm, sampleRate: ESPEAK_SAMPLE_RATE };
    }
  }
}
