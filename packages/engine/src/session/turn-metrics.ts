import type { CallerTurn } from "./turn-taking.ts";
import type { TurnMetrics } from "./types.ts";

const span = (from: number | null, to: number | null) =>
  from === null || to === null ? null : Math.max(0, Math.round((to - from) * 100) / 100);

/** Timestamps of one caller turn on its way to the first assistant audio. */
export class TurnTimer {
  llmRequestAt: number | null = null;
  llmFirstTokenAt: number | null = null;
  ttsRequestAt: number | null = null;
  ttsFirstAudioAt: number | null = null;

  /** When the caller stopped speaking (or the typed text / key press arrived). */
  readonly startedAt: number;

  constructor(
    readonly turn: number,
    /** The spoken turn; a number (when it arrived) for typed text and keys. */
    readonly source: CallerTurn | number,
  ) {
    this.startedAt = typeof source === "number" ? source : source.speechEndedAt;
  }

  /**
   * The figures, with `firstAudioOutAt` the moment the first audible assistant frame was handed to
   * the transport (null: none was). The parts add up: voice-to-voice = STT + end-of-turn wait + the
   * model until its first sentence + the voice's first byte + engine overhead.
   */
  metrics(firstAudioOutAt: number | null): TurnMetrics {
    const spoken = typeof this.source === "number" ? null : this.source;
    const sttMs = spoken ? span(this.startedAt, spoken.transcribedAt) : null;
    // The end-of-turn wait runs from whichever came last, the end of speech or the words.
    const endOfTurnWaitMs = spoken ? span(Math.max(this.startedAt, spoken.transcribedAt), spoken.committedAt) : null;
    const voiceToVoiceMs = span(this.startedAt, firstAudioOutAt);
    // Provider waits: recognition, the model until the first sentence was ready, the voice's first byte.
    const llmWait = span(this.llmRequestAt, this.ttsRequestAt);
    const ttsTtfbMs = span(this.ttsRequestAt, this.ttsFirstAudioAt);
    const waits = (sttMs ?? 0) + (endOfTurnWaitMs ?? 0) + (llmWait ?? 0) + (ttsTtfbMs ?? 0);
    const engineOverheadMs =
      voiceToVoiceMs === null ? null : Math.max(0, Math.round((voiceToVoiceMs - waits) * 100) / 100);
    return {
      turn: this.turn,
      endOfTurnRule: spoken?.rule ?? null,
      endOfTurnWaitMs,
      sttMs,
      llmTtftMs: span(this.llmRequestAt, this.llmFirstTokenAt),
      ttsTtfbMs,
      voiceToVoiceMs,
      engineOverheadMs,
    };
  }
}

/** Follows the caller turn being answered and emits its metrics when the first answer audio goes out. */
export class TurnMetricsTracker {
  private active: TurnTimer | null = null;

  constructor(
    private readonly now: () => number,
    private readonly emit: (metrics: TurnMetrics) => void,
  ) {}

  /** A new caller turn is being answered. */
  begin(timer: TurnTimer): void {
    this.active = timer;
  }

  isActive(timer: TurnTimer): boolean {
    return this.active === timer;
  }

  llmRequest(): void {
    if (this.active) this.active.llmRequestAt = this.now();
  }

  llmFirstToken(): void {
    if (this.active) this.active.llmFirstTokenAt = this.now();
  }

  ttsRequest(): void {
    if (this.active && this.active.ttsRequestAt === null) this.active.ttsRequestAt = this.now();
  }

  ttsFirstAudio(): void {
    if (this.active && this.active.ttsFirstAudioAt === null) this.active.ttsFirstAudioAt = this.now();
  }

  /** Emits the active turn's metrics; `firstAudioAt` null when the turn produced no audio. */
  flush(firstAudioAt: number | null): void {
    const turn = this.active;
    if (!turn) return;
    this.active = null;
    this.emit(turn.metrics(firstAudioAt));
  }
}
