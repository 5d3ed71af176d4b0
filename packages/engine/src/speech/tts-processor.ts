import { Resampler } from "../audio/resample.ts";
import { ENGINE_SAMPLE_RATE } from "../constants.ts";
import { FrameProcessor } from "../frames/frame-processor.ts";
import type { DataFrame, FrameOf, SystemFrame } from "../frames/frames.ts";
import type { TtsProvider } from "../providers/types.ts";

export interface TtsHooks {
  /** A sentence went to the provider. */
  onRequest?(frame: FrameOf<"sentence">): void;
  /** Its first audio came back. */
  onFirstAudio?(frame: FrameOf<"sentence">): void;
  /** A sentence failed; `audioStarted` when its stream was cut after some of it was heard (it is said again). */
  onError?(error: unknown, audioStarted: boolean): void;
}

/**
 * Speaks each `sentence` frame through the TTS provider, passing the sentence on first (so the
 * playout knows its text) and then its audio, resampled to the engine rate, as it streams in.
 * An interruption aborts the synthesis in flight.
 */
export class TtsProcessor extends FrameProcessor {
  private controller: AbortController | null = null;

  constructor(
    private readonly tts: TtsProvider,
    private readonly hooks: TtsHooks = {},
  ) {
    super();
  }

  protected override async process(frame: DataFrame): Promise<void> {
    if (frame.type !== "sentence") {
      this.push(frame);
      return;
    }
    this.push(frame);
    const generation = this.generation;
    const controller = new AbortController();
    this.controller = controller;
    try {
      const progress = { audio: false };
      try {
        await this.synthesize(frame, controller.signal, generation, progress);
      } catch (error) {
        if (controller.signal.aborted) return;
        this.hooks.onError?.(error, progress.audio);
        // A stream cut mid-sentence is said again whole (by the next voice of the chain, which
        // now puts the failed one last): a repeated half sentence beats a reply that stops.
        if (progress.audio) await this.synthesize(frame, controller.signal, generation, { audio: false });
      }
    } catch (error) {
      if (!controller.signal.aborted) this.hooks.onError?.(error, false);
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }

  protected override handleSystem(frame: SystemFrame): void {
    this.controller?.abort();
    this.controller = null;
    super.handleSystem(frame);
  }

  private async synthesize(
    frame: FrameOf<"sentence">,
    signal: AbortSignal,
    generation: number,
    progress: { audio: boolean },
  ): Promise<void> {
    this.hooks.onRequest?.(frame);
    let resampler: Resampler | null = null;
    let first = true;
    const emit = (pcm: Int16Array) => {
      if (pcm.length > 0 && generation === this.generation) {
        this.push({ type: "tts_audio", pcm, utterance: frame.utterance, sentence: frame.sentence });
      }
    };
    for await (const chunk of this.tts.synthesize(frame.text, { signal })) {
      if (signal.aborted || generation !== this.generation) return;
      if (first) {
        first = false;
        progress.audio = true;
        this.hooks.onFirstAudio?.(frame);
      }
      if (!resampler || resampler.inRate !== chunk.sampleRate) {
        if (resampler) emit(resampler.flush());
        resampler = new Resampler(chunk.sampleRate, ENGINE_SAMPLE_RATE);
      }
      emit(resampler.process(chunk.pcm));
    }
    if (resampler) emit(resampler.flush());
  }
}
