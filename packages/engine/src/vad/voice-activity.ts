import { levelDb } from "../audio/pcm.ts";

/** A speech detector over 20 ms frames of 16 kHz PCM. */
export interface VoiceActivityModel {
  readonly name: string;
  /** Speech probability (0–1) of one frame. */
  process(frame: Int16Array): number | Promise<number>;
  /** Forgets the recurrent state (a new call or a long gap). */
  reset(): void;
  close(): void;
}

/**
 * Level-based detector: loud frames count as speech. It cannot tell speech from noise, so it is
 * the last resort (and the deterministic detector of the session tests).
 */
export class EnergyVad implements VoiceActivityModel {
  readonly name = "energy";

  /** Frames at `floorDb` are 0, at `fullDb` and above are 1. */
  constructor(
    private readonly floorDb = -50,
    private readonly fullDb = -35,
  ) {}

  process(frame: Int16Array): number {
    const level = levelDb(frame);
    return Math.min(1, Math.max(0, (level - this.floorDb) / (this.fullDb - this.floorDb)));
  }

  reset(): void {}

  close(): void {}
}
