import { ToneDetector } from "../audio/goertzel.ts";
import { ENGINE_SAMPLE_RATE } from "../constants.ts";
import { findPhrase, VOICEMAIL_PHRASES } from "../text/phrases.ts";
import type { Clock } from "./types.ts";

/** Only the start of a call can be an answering machine. */
const WINDOW_MS = 60_000;
const MAX_TURNS = 3;
/** After a greeting, how long to wait for the beep before speaking anyway. */
const BEEP_WAIT_MS = 8000;

export interface VoicemailHooks {
  /** A greeting phrase or a beep said this is a machine. */
  onDetected(kind: "greeting" | "beep"): void;
  /** The beep has ended (or never came): a message left now is recorded. */
  onReadyForMessage(): void;
}

/**
 * Answering-machine detection from the first caller transcripts (greeting phrases) and from the
 * audio (a sustained tone near 1 kHz: the beep).
 */
export class VoicemailDetector {
  private readonly beep = new ToneDetector({
    sampleRate: ENGINE_SAMPLE_RATE,
    frequencies: [850, 900, 950, 1000, 1050, 1100],
    minDurationMs: 200,
  });
  private turns = 0;
  private detected = false;
  private beepEnded = false;
  private ready = false;
  private waitTimer: unknown = null;

  constructor(
    private readonly clock: Clock,
    private readonly startedAt: number,
    private readonly hooks: VoicemailHooks,
  ) {}

  /** Caller audio, one frame at a time. */
  onCallerFrame(pcm: Int16Array): void {
    if (this.ready || (!this.detected && this.clock.now() - this.startedAt > WINDOW_MS)) return;
    const event = this.beep.push(pcm);
    if (event === "start" && !this.detected) this.detect("beep");
    if (event === "end") {
      this.beepEnded = true;
      if (this.detected) this.becomeReady();
    }
  }

  /** A caller turn; true when it belongs to a machine (and must not be answered). */
  onCallerTurn(text: string): boolean {
    if (this.detected) return true;
    if (this.turns >= MAX_TURNS || this.clock.now() - this.startedAt > WINDOW_MS) return false;
    this.turns++;
    if (!findPhrase(text, VOICEMAIL_PHRASES)) return false;
    this.detect("greeting");
    if (this.beepEnded) this.becomeReady();
    else this.waitTimer = this.clock.setTimeout(() => this.becomeReady(), BEEP_WAIT_MS);
    return true;
  }

  stop(): void {
    if (this.waitTimer !== null) this.clock.clearTimeout(this.waitTimer);
    this.waitTimer = null;
    this.ready = true;
  }

  private detect(kind: "greeting" | "beep"): void {
    this.detected = true;
    this.hooks.onDetected(kind);
  }

  private becomeReady(): void {
    if (this.ready) return;
    this.stop();
    this.hooks.onReadyForMessage();
  }
}
