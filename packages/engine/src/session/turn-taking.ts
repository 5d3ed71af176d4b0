import type { TranscriptEvent } from "../providers/types.ts";
import type { Clock } from "./types.ts";

/** After the caller stops, how long to wait for the recogniser's final words before giving up. */
const FINAL_WAIT_MS = 2000;
/** A final that arrives with no end of speech seen (the VAD missed it) commits after this pause. */
const UNPROMPTED_FINAL_MS = 400;

export interface CallerTurn {
  text: string;
  /** When the caller stopped speaking (clock time). */
  speechEndedAt: number;
  /** When the transcript was complete. */
  committedAt: number;
}

export interface TurnTakingHooks {
  /** The caller started speaking (the session decides whether that is a barge-in). */
  onSpeechStart(): void;
  /** The caller stopped; the recogniser should finalize. */
  onSpeechEnd(): void;
  onPartial(text: string): void;
  /** A complete caller turn. */
  onTurn(turn: CallerTurn): void;
}

/**
 * Decides when the caller's turn is over: voice activity says when they stop, the recogniser says
 * what they said. Finals that arrive while they are still talking are held and joined.
 */
export class TurnTaking {
  private speaking = false;
  private pending: string[] = [];
  private awaitingFinal = false;
  private speechEndedAt: number | null = null;
  private timer: unknown = null;

  constructor(
    private readonly clock: Clock,
    private readonly hooks: TurnTakingHooks,
  ) {}

  get callerSpeaking(): boolean {
    return this.speaking;
  }

  /**
   * Voice activity changed. `receivedAt` is when the deciding audio arrived, so a detector that
   * runs behind shows up in the turn's latency instead of hiding.
   */
  onVad(speaking: boolean, receivedAt = this.clock.now()): void {
    this.speaking = speaking;
    this.cancelTimer();
    if (speaking) {
      this.hooks.onSpeechStart();
      return;
    }
    this.speechEndedAt = receivedAt;
    this.awaitingFinal = true;
    this.hooks.onSpeechEnd();
    this.startTimer(FINAL_WAIT_MS);
  }

  /** A transcript event from the recogniser. */
  onTranscript(event: TranscriptEvent): void {
    if (event.type === "partial") {
      if (event.text.trim()) this.hooks.onPartial(event.text.trim());
      return;
    }
    if (event.type === "final" && event.text.trim()) this.pending.push(event.text.trim());
    if (this.speaking) return;
    if (this.awaitingFinal || (event.type === "utterance_end" && this.pending.length > 0)) {
      this.commit();
    } else if (this.pending.length > 0) {
      this.cancelTimer();
      this.startTimer(UNPROMPTED_FINAL_MS);
    }
  }

  /** Drops anything half-heard (the call is ending). */
  stop(): void {
    this.cancelTimer();
    this.pending = [];
    this.awaitingFinal = false;
  }

  private commit(): void {
    this.cancelTimer();
    const text = this.pending.join(" ").trim();
    const now = this.clock.now();
    const speechEndedAt = this.speechEndedAt ?? now;
    this.pending = [];
    this.awaitingFinal = false;
    this.speechEndedAt = null;
    if (text) this.hooks.onTurn({ text, speechEndedAt, committedAt: now });
  }

  private startTimer(ms: number): void {
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.commit();
    }, ms);
  }

  private cancelTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
