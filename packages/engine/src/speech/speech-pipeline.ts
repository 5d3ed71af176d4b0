import type { BackgroundMixer } from "../audio/background.ts";
import type { Clock } from "../clock/clock.ts";
import type { FrameOf } from "../frames/frames.ts";
import type { TtsProvider } from "../providers/types.ts";
import { Playout } from "./playout.ts";
import { SentenceAggregator } from "./sentence-aggregator.ts";
import { type SpeechOutput as Output, SpeechOutput, type SpeechOutputHooks } from "./speech-output.ts";
import { TtsProcessor } from "./tts-processor.ts";

export interface SpeechPipelineOptions {
  clock: Clock;
  tts: TtsProvider;
  background?: BackgroundMixer | null;
  /** The sample rate of the caller's line, when narrower than the engine's audio (a phone line: 8000). */
  lineRate?: number;
  hooks?: SpeechOutputHooks & {
    onTtsRequest?(frame: FrameOf<"sentence">): void;
    onTtsFirstAudio?(frame: FrameOf<"sentence">): void;
    onTtsError?(error: unknown, audioStarted: boolean): void;
    /** Every 20 ms frame that goes out, speech or not. */
    onFrame?(pcm: Int16Array): void;
    /** A sentence started playing; `spoken` is its reply's text so far, that sentence included. */
    onSentenceStart?(spoken: string): void;
    /** An utterance's first audible frame went out (see `PlayoutHooks.onUtteranceAudible`). */
    onAudible?(): void;
  };
}

export interface SpeechPipeline {
  output: Output;
  playout: Playout;
}

/** Builds text → sentences → TTS → paced playout, and the utterance queue in front of it. */
export function createSpeechPipeline(options: SpeechPipelineOptions): SpeechPipeline {
  const hooks = options.hooks ?? {};
  const aggregator = new SentenceAggregator();
  const tts = new TtsProcessor(options.tts, {
    onRequest: hooks.onTtsRequest,
    onFirstAudio: hooks.onTtsFirstAudio,
    onError: hooks.onTtsError,
  });
  let output: SpeechOutput | null = null;
  const playout = new Playout(
    options.clock,
    {
      onUtteranceStart: (id) => output?.started(id),
      onUtteranceAudible: () => hooks.onAudible?.(),
      onSentenceStart: (_id, spoken) => hooks.onSentenceStart?.(spoken),
      onUtteranceDone: (id) => output?.finished(id),
    },
    options.background ?? null,
    options.lineRate,
  );
  aggregator.link(tts).link(playout);
  playout.onOutput((frame) => {
    if (frame.type === "audio_out") hooks.onFrame?.(frame.pcm);
  });
  output = new SpeechOutput(aggregator, playout, hooks);
  return { output, playout };
}
