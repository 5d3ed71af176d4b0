import { rms } from "../audio/pcm.ts";
import { AUDIBLE_RMS, FRAME_MS } from "../constants.ts";
import { FrameProcessor } from "../frames/frame-processor.ts";
import type { DataFrame, FrameOf } from "../frames/frames.ts";
import { TurnDetector, type TurnSettings } from "./turn-detector.ts";
import type { VoiceActivityModel } from "./voice-activity.ts";

/**
 * Passes caller audio on and adds `vad` frames when the caller starts or stops speaking.
 * Audio goes out before the model is consulted, so recognition never waits for the detector.
 */
export class VadProcessor extends FrameProcessor {
  private readonly detector: TurnDetector;
  private readonly endThreshold: number;
  /** When the newest frame that was not silence arrived (its last sample). */
  private lastVoicedAt: number | undefined;
  /** When the newest voiced frame with audible sound in it arrived, since the last end of speech. */
  private lastSoundAt: number | undefined;

  constructor(
    private readonly model: VoiceActivityModel,
    settings: TurnSettings,
  ) {
    super();
    this.detector = new TurnDetector(settings);
    this.endThreshold = settings.endThreshold;
  }

  get speaking(): boolean {
    return this.detector.speaking;
  }

  protected override process(frame: DataFrame): void | Promise<void> {
    this.push(frame);
    if (frame.type !== "audio_in") return;
    const result = this.model.process(frame.pcm);
    // Most frames complete no model window (or a silent one): their probability is at hand.
    if (typeof result === "number") return this.judge(frame, result);
    return result.then((probability) => this.judge(frame, probability));
  }

  private judge(frame: FrameOf<"audio_in">, probability: number): void {
    // The end of the caller's speech is the last frame that was not silence, in the audio's own
    // arrival time: the pause the detector then needs is the caller's wait, not a shift of the anchor.
    if (probability >= this.endThreshold) {
      this.lastVoicedAt = frame.receivedAt;
      // The model reads 32 ms windows and its probability trails off after the voice stops, so the
      // frames just after the speech still read as voiced: the speech ends with the last of them
      // that holds sound. A caller too quiet for that threshold keeps the model's judgement.
      if (rms(frame.pcm) >= AUDIBLE_RMS) this.lastSoundAt = frame.receivedAt;
    }
    const event = this.detector.push(probability, (frame.pcm.length / 16) | 0 || FRAME_MS);
    if (event === "start") {
      // Sound before the speech began (a blip the detector let pass) is no end of this speech.
      if (this.lastSoundAt !== frame.receivedAt) this.lastSoundAt = undefined;
      this.push({ type: "vad", speaking: true, receivedAt: frame.receivedAt });
    } else if (event === "end") {
      const speechEndedAt = this.lastSoundAt ?? this.lastVoicedAt;
      this.lastSoundAt = undefined;
      this.push({ type: "vad", speaking: false, receivedAt: frame.receivedAt, speechEndedAt });
    }
  }
}
