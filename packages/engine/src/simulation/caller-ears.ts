import { rms } from "../audio/pcm.ts";

/** How long the assistant must be quiet after it was heard before the caller takes it as finished. */
export const ASSISTANT_DONE_SILENCE_MS = 600;
/**
 * What the caller counts as the assistant speaking: above the engine's -50 dBFS "audible", so the
 * quantisation hiss of a phone line does not keep the assistant talking in the caller's ears.
 */
export const HEARING_THRESHOLD_DBFS = -45;
const HEARING_RMS = 32768 * 10 ** (HEARING_THRESHOLD_DBFS / 20);

/** What ended a wait for the assistant: its reply heard to the end, the moment to cut in, or nothing heard. */
export type ReplyOutcome = "finished" | "interrupt" | "timeout";

export interface ReplyWait {
  /** Cut in this long after the reply became audible (null: let it finish). */
  interruptAfterMs: number | null;
  /** Go on anyway when nothing was heard for this long since listening began. */
  timeoutMs: number;
}

/** The caller's ears: judges from the assistant's audio alone when it speaks and when it has finished. */
export class CallerEars {
  private lastAudibleAt: number | null = null;
  /** The first audible frame since `listen()` (or since the call began, for the greeting). */
  private replyAudibleAt: number | null = null;
  private listeningSince = 0;

  hear(pcm: Int16Array, now: number): void {
    if (rms(pcm) < HEARING_RMS) return;
    this.lastAudibleAt = now;
    this.replyAudibleAt ??= now;
  }

  /** The caller's clock started: a greeting already heard still counts, the wait for one starts now. */
  begin(now: number): void {
    this.listeningSince = now;
  }

  /** Starts listening for a new reply: sound heard before now belongs to the last one. */
  listen(now: number): void {
    this.listeningSince = now;
    this.replyAudibleAt = null;
  }

  /** The assistant was heard within the last ASSISTANT_DONE_SILENCE_MS. */
  speaking(now: number): boolean {
    return this.lastAudibleAt !== null && now - this.lastAudibleAt < ASSISTANT_DONE_SILENCE_MS;
  }

  /** Whether the wait for the reply is over, and how; null while it goes on. */
  outcome(now: number, wait: ReplyWait): ReplyOutcome | null {
    if (this.replyAudibleAt === null) return now - this.listeningSince >= wait.timeoutMs ? "timeout" : null;
    if (!this.speaking(now)) return "finished";
    if (wait.interruptAfterMs !== null && now - this.replyAudibleAt >= wait.interruptAfterMs) return "interrupt";
    return null;
  }

  /** A reply has been heard since `listen()`. */
  get heardReply(): boolean {
    return this.replyAudibleAt !== null;
  }
}
