import type { TranscriptEvent } from "../providers/types.ts";
import { type EndOfTurnRule, type EndOfTurnSettings, ruleFor, waitFor } from "./end-of-turn.ts";
import type { Clock } from "./types.ts";

/** After the caller stops, how long to wait for the recogniser's final words before giving up. */
const FINAL_WAIT_MS = 2000;
/** A final that arrives with no end of speech seen (the VAD missed it) commits after this pause. */
const UNPROMPTED_FINAL_MS = 400;

export interface CallerTurn {
  text: string;
  /**
   * When the caller stopped speaking (clock time): the end of the last voiced audio before the turn
   * was judged over, whichever rule judged it and however late the words came.
   */
  speechEndedAt: number;
  /** When the recogniser's last words of the turn arrived. */
  transcribedAt: number;
  /** When the turn was judged over. */
  committedAt: number;
  rule: EndOfTurnRule;
}

export interface TurnTakingHooks {
  /** The caller started speaking (the session decides whether that is a barge-in). */
  onSpeechStart(): void;
  /** The caller paused; the recogniser should finalize. */
  onSpeechEnd(): void;
  onPartial(text: string): void;
  /** A complete caller turn. */
  onTurn(turn: CallerTurn): void;
}

export interface TurnTakingOptions {
  endOfTurn: EndOfTurnSettings;
  /** The pause the voice detector needs before it reports the caller stopped (part of every wait). */
  pauseMs: number;
  /** Whether the recogniser in use punctuates (read per turn: a fallback may switch it). */
  punctuates: () => boolean;
}

/**
 * Decides when the caller's turn is over: voice activity says when they pause, the recogniser says
 * what they said, and the end-of-turn rules say how long that pause must last. Finals that arrive
 * while they are still talking are held and joined; speech during the wait keeps the turn open.
 */
export class TurnTaking {
  private speaking = false;
  private pending: string[] = [];
  private awaitingFinal = false;
  /** The end of speech seen since the last committed turn. */
  private speechEndedAt: number | null = null;
  /** The end of the newest speech the voice detector saw (kept across turns). */
  private lastSpeechEndAt: number | null = null;
  /** The recogniser still owes the words of the speech that ended at `lastSpeechEndAt`. */
  private wordsOwed = false;
  /** Where pending words spoken before the last commit belong: the speech whose words came late. */
  private lateWordsSpokenAt: number | null = null;
  private transcribedAt: number | null = null;
  private timer: unknown = null;

  constructor(
    private readonly clock: Clock,
    private readonly options: TurnTakingOptions,
    private readonly hooks: TurnTakingHooks,
  ) {}

  get callerSpeaking(): boolean {
    return this.speaking;
  }

  /**
   * Voice activity changed. `receivedAt` is when the deciding audio arrived and `speechEndedAt` when
   * the last voiced audio before the pause did (without it: the deciding audio less the pause), so a
   * detector that runs behind shows up in the turn's latency instead of hiding.
   */
  onVad(speaking: boolean, receivedAt = this.clock.now(), speechEndedAt?: number): void {
    this.speaking = speaking;
    this.cancelTimer();
    if (speaking) {
      this.hooks.onSpeechStart();
      return;
    }
    this.speechEndedAt = speechEndedAt ?? receivedAt - this.options.pauseMs;
    this.lastSpeechEndAt = this.speechEndedAt;
    this.wordsOwed = true;
    this.awaitingFinal = true;
    this.hooks.onSpeechEnd();
    // Finals heard while the caller spoke may already decide; the recogniser's answer re-decides.
    if (this.pending.length > 0) this.scheduleByRule();
    else this.startTimer(FINAL_WAIT_MS, "timeout");
  }

  /** A transcript event from the recogniser. */
  onTranscript(event: TranscriptEvent): void {
    if (event.type === "partial") {
      if (event.text.trim()) this.hooks.onPartial(event.text.trim());
      return;
    }
    if (event.type === "final") {
      // Words that answer a finalize after their turn's bookkeeping moved on (the recogniser took
      // longer than the final wait, or a turn was committed meanwhile) still belong to that speech:
      // the caller has been waiting since it ended, not since the words arrived.
      if (this.wordsOwed && !this.speaking && event.text.trim()) this.lateWordsSpokenAt ??= this.lastSpeechEndAt;
      this.wordsOwed = false;
    }
    if (event.type === "final" && event.text.trim()) {
      this.pending.push(event.text.trim());
      this.transcribedAt = this.clock.now();
    }
    if (this.speaking || this.pending.length === 0) return;
    if (event.type === "utterance_end" && event.endOfTurn && this.options.endOfTurn.vendorEvents) {
      this.commit("vendor");
    } else if (this.awaitingFinal) {
      this.scheduleByRule();
    } else {
      this.cancelTimer();
      this.startTimer(UNPROMPTED_FINAL_MS, "timeout");
    }
  }

  /** Drops anything half-heard (the call is ending). */
  stop(): void {
    this.cancelTimer();
    this.pending = [];
    this.awaitingFinal = false;
  }

  /** Waits what the transcript's rule asks, counted from the end of speech (the pause included). */
  private scheduleByRule(): void {
    this.cancelTimer();
    const rule = ruleFor(this.pending.join(" "), this.options.punctuates());
    const due = (this.speechEndedAt ?? this.clock.now()) + waitFor(rule, this.options.endOfTurn);
    this.startTimer(Math.max(0, due - this.clock.now()), rule);
  }

  private commit(rule: EndOfTurnRule): void {
    this.cancelTimer();
    const text = this.pending.join(" ").trim();
    const now = this.clock.now();
    const transcribedAt = this.transcribedAt ?? now;
    // Speech seen since the last turn; else the speech whose words came late; else (the detector
    // heard nothing the recogniser did) the words' arrival, the latest the caller can have spoken.
    const speechEndedAt = this.speechEndedAt ?? this.lateWordsSpokenAt ?? transcribedAt;
    this.pending = [];
    this.awaitingFinal = false;
    this.speechEndedAt = null;
    this.lateWordsSpokenAt = null;
    this.transcribedAt = null;
    if (text) this.hooks.onTurn({ text, speechEndedAt, transcribedAt, committedAt: now, rule });
  }

  private startTimer(ms: number, rule: EndOfTurnRule): void {
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.commit(rule);
    }, ms);
  }

  private cancelTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
