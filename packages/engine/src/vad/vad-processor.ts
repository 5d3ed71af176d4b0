import { FRAME_MS } from "../constants.ts";
import { FrameProcessor } from "../frames/frame-processor.ts";
import type { DataFrame } from "../frames/frames.ts";
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

  protected override async process(frame: DataFrame): Promise<void> {
    this.push(frame);
    if (frame.type !== "audio_in") return;
    const result = this.model.process(frame.pcm);
    const probability = typeof result === "number" ? result : await result;
    // The end of the caller's speech is the last frame that was not silence, in the audio's own
    // arrival time: the pause the detector then needs is the caller's wait, not a shift of the anchor.
    if (probability >= this.endThreshold) this.lastVoicedAt = frame.receivedAt;
    const event = this.detector.push(probability, (frame.pcm.length / 16) | 0 || FRAME_MS);
    if (event === "start") this.push({ type: "vad", speaking: true, receivedAt: frame.receivedAt });
    else if (event === "end") {
      this.push({ type: "vad", speaking: false, receivedAt: frame.receivedAt, speechEndedAt: this.lastVoicedAt });
    }
  }
}
