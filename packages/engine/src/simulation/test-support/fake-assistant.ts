import { sine } from "../../../testing/signals.ts";
import type { VirtualClock } from "../../../testing/virtual-clock.ts";
import { rms } from "../../audio/pcm.ts";
import { AUDIBLE_RMS, FRAME_MS, SAMPLES_PER_FRAME } from "../../constants.ts";
import type { SimulatedCaller } from "../types.ts";

/** A stretch of audible frames from one side; gaps shorter than a word break are bridged. */
export interface Burst {
  start: number;
  end: number;
}

export interface FakeAssistantOptions {
  /** The first message's length (0: the assistant waits for the caller). */
  greetingMs?: number;
  /** Each reply's length (0: the assistant never replies). */
  replyMs?: number;
  /** From the caller's end of speech to the reply. */
  replyDelayMs?: number;
  /** How long the caller must be quiet before the assistant takes its turn as over. */
  endOfTurnMs?: number;
  /** Stop talking as soon as the caller is heard. */
  bargeIn?: boolean;
  /** Reply to key presses too. */
  repliesToDtmf?: boolean;
  /** Say something (a `replyMs` prompt) after this long with neither side audible; null: never. */
  silencePromptAfterMs?: number | null;
  /** The words of each utterance in turn (greeting first), given to the caller once it has been said. */
  lines?: string[];
}

const BRIDGE_MS = 100;

/** Bursts of audible frames, from frames stamped with the time they went out. */
export function bursts(frames: readonly { at: number; audible: boolean }[]): Burst[] {
  const out: Burst[] = [];
  for (const frame of frames) {
    if (!frame.audible) continue;
    const last = out.at(-1);
    if (last && frame.at - last.end <= BRIDGE_MS) last.end = frame.at;
    else out.push({ start: frame.at, end: frame.at });
  }
  return out;
}

/**
 * The assistant's side of a test call, reduced to what the caller can hear: tone frames every 20 ms
 * (its speech) and silence, replying a set time after the caller's speech ends.
 */
export class FakeAssistant {
  readonly callerFrames: { at: number; audible: boolean }[] = [];
  readonly spokenFrames: { at: number; audible: boolean }[] = [];
  readonly digits: { at: number; digit: string }[] = [];
  /** When the caller hung up; null while it has not. */
  hungUpAt: number | null = null;
  private queue: Int16Array[] = [];
  private lastActivityAt: number | null = null;
  /** The words of the utterance being said, told to the caller when its last frame is out. */
  private pendingWords: string | null = null;
  private callerLastAudibleAt: number | null = null;
  private replyAt: number | null = null;
  private readonly options: Required<FakeAssistantOptions>;
  private readonly timer: unknown;

  constructor(
    private readonly clock: VirtualClock,
    private readonly caller: SimulatedCaller,
    options: FakeAssistantOptions = {},
  ) {
    this.options = {
      greetingMs: 0,
      replyMs: 1000,
      replyDelayMs: 500,
      endOfTurnMs: 400,
      bargeIn: false,
      repliesToDtmf: false,
      silencePromptAfterMs: null,
      lines: [],
      ...options,
    };
    caller.onAudio((pcm) => this.fromCaller(pcm));
    caller.onDtmf((digit) => {
      this.digits.push({ at: clock.now(), digit });
      if (this.options.repliesToDtmf) this.replyAt = clock.now() + this.options.replyDelayMs;
    });
    caller.onHangup(() => {
      this.hungUpAt = clock.now();
    });
    if (this.options.greetingMs > 0) this.speak(this.options.greetingMs);
    this.timer = clock.setInterval(() => this.tick(), FRAME_MS);
  }

  /** Queues `ms` of tone: the assistant says something (its next line's words, if any). */
  speak(ms: number): void {
    if (ms <= 0) return;
    this.pendingWords = this.options.lines.shift() ?? null;
    const tone = sine(330, ms, 16_000, 0.3);
    for (let i = 0; i + SAMPLES_PER_FRAME <= tone.length; i += SAMPLES_PER_FRAME) {
      this.queue.push(tone.slice(i, i + SAMPLES_PER_FRAME));
    }
  }

  get speaking(): boolean {
    return this.queue.length > 0;
  }

  close(): void {
    this.clock.clearInterval(this.timer);
  }

  callerBursts(): Burst[] {
    return bursts(this.callerFrames);
  }

  assistantBursts(): Burst[] {
    return bursts(this.spokenFrames);
  }

  private fromCaller(pcm: Int16Array): void {
    const now = this.clock.now();
    const audible = rms(pcm) >= AUDIBLE_RMS;
    this.callerFrames.push({ at: now, audible });
    if (!audible) return;
    this.callerLastAudibleAt = now;
    this.replyAt = null;
    this.lastActivityAt = now;
    if (this.options.bargeIn && this.queue.length > 0) {
      this.queue = [];
      this.tellWords();
    }
  }

  private tellWords(): void {
    if (this.pendingWords !== null) this.caller.hearWords(this.pendingWords);
    this.pendingWords = null;
  }

  private tick(): void {
    const now = this.clock.now();
    const quietSince = this.callerLastAudibleAt;
    if (quietSince !== null && this.replyAt === null && now - quietSince >= this.options.endOfTurnMs) {
      this.replyAt = quietSince + this.options.replyDelayMs;
      this.callerLastAudibleAt = null;
    }
    if (this.replyAt !== null && now >= this.replyAt) {
      this.replyAt = null;
      this.speak(this.options.replyMs);
    }
    const prompt = this.options.silencePromptAfterMs;
    const quiet = this.lastActivityAt !== null && now - this.lastActivityAt >= (prompt ?? 0);
    if (prompt !== null && quiet && this.queue.length === 0 && this.replyAt === null) this.speak(this.options.replyMs);
    const frame = this.queue.shift() ?? new Int16Array(SAMPLES_PER_FRAME);
    const audible = rms(frame) >= AUDIBLE_RMS;
    this.spokenFrames.push({ at: now, audible });
    if (audible) this.lastActivityAt = now;
    this.caller.hearAudio(frame);
    if (audible && this.queue.length === 0) this.tellWords();
  }
}
