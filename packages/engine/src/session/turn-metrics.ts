import type { TurnMetrics } from "./types.ts";

const span = (from: number | null, to: number | null) =>
  from === null || to === null ? null : Math.max(0, Math.round((to - from) * 100) / 100);

/** Timestamps of one caller turn on its way to the first assistant audio. */
export class TurnTimer {
  llmRequestAt: number | null = null;
  llmFirstTokenAt: number | null = null;
  ttsRequestAt: number | null = null;
  ttsFirstAudioAt: number | null = null;

  constructor(
    readonly turn: number,
    /** When the caller stopped speaking (or the typed text / key press arrived). */
    readonly startedAt: number,
    /** When the transcript was complete; null for typed text and keys. */
    readonly committedAt: number | null,
  ) {}

  /** The figures, with `firstAudioOutAt` the moment the first assistant frame went out (null: none did). */
  metrics(firstAudioOutAt: number | null): TurnMetrics {
    const sttMs = this.committedAt === null ? null : span(this.startedAt, this.committedAt);
    const voiceToVoiceMs = span(this.startedAt, firstAudioOutAt);
    // Provider waits: recognition, the model until the first sentence was ready, the voice's first byte.
    const llmWait = span(this.llmRequestAt, this.ttsRequestAt);
    const ttsTtfbMs = span(this.ttsRequestAt, this.ttsFirstAudioAt);
    const engineOverheadMs =
      voiceToVoiceMs === null
        ? null
        : Math.max(0, Math.round((voiceToVoiceMs - (sttMs ?? 0) - (llmWait ?? 0) - (ttsTtfbMs ?? 0)) * 100) / 100);
    return {
      turn: this.turn,
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
