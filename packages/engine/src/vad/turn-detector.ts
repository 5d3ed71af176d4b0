/** When speech counts as started and when a silence ends the caller's turn. */
export interface TurnSettings {
  /** Probability at or above which a frame is speech. */
  startThreshold: number;
  /** Probability below which a frame is silence (between the two, the state holds). */
  endThreshold: number;
  /** Speech that must last this long before it counts (and may interrupt the assistant). */
  minSpeechMs: number;
  /** Silence that ends the caller's turn. */
  endSilenceMs: number;
}

/** How readily the assistant yields the floor to the caller. */
export type InterruptionSensitivity = "low" | "medium" | "high";

/**
 * Settings from the assistant's interruption sensitivity: a sensitive assistant yields to the
 * caller after a short burst of speech and answers after a shorter pause.
 */
export function turnSettings(sensitivity: InterruptionSensitivity): TurnSettings {
  switch (sensitivity) {
    case "high":
      return { startThreshold: 0.5, endThreshold: 0.35, minSpeechMs: 100, endSilenceMs: 500 };
    case "low":
      return { startThreshold: 0.6, endThreshold: 0.35, minSpeechMs: 350, endSilenceMs: 1000 };
    default:
      return { startThreshold: 0.5, endThreshold: 0.35, minSpeechMs: 200, endSilenceMs: 700 };
  }
}

/**
 * The pause after which the caller counts as having stopped, for the end-of-turn rules to judge
 * (their waits include it). Shorter than any turn-ending silence, longer than a gap between words.
 */
export function pauseMs(sensitivity: InterruptionSensitivity): number {
  return { high: 150, medium: 200, low: 300 }[sensitivity];
}

/** Turns per-frame speech probabilities into "caller started / stopped speaking" events. */
export class TurnDetector {
  private speechMs = 0;
  private silenceMs = 0;
  private active = false;

  constructor(private readonly settings: TurnSettings) {}

  get speaking(): boolean {
    return this.active;
  }

  /** Feeds one frame's probability; returns the event it caused, if any. */
  push(probability: number, frameMs: number): "start" | "end" | null {
    const { startThreshold, endThreshold, minSpeechMs, endSilenceMs } = this.settings;
    const isSpeech = probability >= startThreshold;
    const isSilence = probability < endThreshold;
    if (!this.active) {
      if (isSpeech) this.speechMs += frameMs;
      else if (isSilence) this.speechMs = 0;
      if (this.speechMs >= minSpeechMs) {
        this.active = true;
        this.silenceMs = 0;
        return "start";
      }
      return null;
    }
    if (isSilence) this.silenceMs += frameMs;
    else if (isSpeech) this.silenceMs = 0;
    if (this.silenceMs >= endSilenceMs) {
      this.active = false;
      this.speechMs = 0;
      return "end";
    }
    return null;
  }
}
