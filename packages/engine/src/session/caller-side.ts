import { Reframer } from "../audio/reframer.ts";
import { StreamArrival } from "../audio/stream-arrival.ts";
import { ENGINE_SAMPLE_RATE, SAMPLES_PER_FRAME } from "../constants.ts";
import type { Frame } from "../frames/frames.ts";
import { SilentTranscriberError } from "../providers/stage-deadlines.ts";
import type { SttProvider, SttSession } from "../providers/types.ts";
import { type InterruptionSensitivity, pauseMs, turnSettings } from "../vad/turn-detector.ts";
import { VadProcessor } from "../vad/vad-processor.ts";
import type { VoiceActivityModel } from "../vad/voice-activity.ts";
import type { CallSettings } from "./call-settings.ts";
import { ON_MACHINE } from "./fault-policy.ts";
import { TurnTaking, type TurnTakingHooks } from "./turn-taking.ts";
import type { Clock } from "./types.ts";

/** Speech shorter than this (a cough, a click) may rightly get no words: it never counts as a silent recogniser. */
const MIN_SPEECH_FOR_WORDS_MS = 600;

export interface CallerSideHooks extends Omit<TurnTakingHooks, "onSpeechEnd"> {
  /** Every 20 ms caller frame (tone detection). */
  onFrame(pcm: Int16Array): void;
  /** Every recogniser failed, or none could be opened: the call cannot hear the caller. */
  onSttFailed(provider: string, error: Error): void;
  /** The recogniser heard speech and gave no words: it is re-opened, the caller's words are lost. */
  onSttSilent(provider: string): void;
  /** Voice activity changed (after turn-taking has seen it). */
  onActivity(): void;
}

/**
 * The caller's way in: audio is cut into 20 ms frames, goes through voice activity detection to
 * the recogniser, and turn-taking turns both into caller turns.
 */
export class CallerSide {
  private readonly reframer = new Reframer(SAMPLES_PER_FRAME);
  private readonly turns: TurnTaking;
  private vad: VadProcessor | null = null;
  private model: VoiceActivityModel | null = null;
  private stt: SttSession | null = null;
  private sttProvider: SttProvider | null = null;
  private closed = false;
  private readonly sensitivity: InterruptionSensitivity;
  /** Dates streamed audio by its place in the stream; null: audio is dated when it is handled. */
  private readonly arrival: StreamArrival | null;
  /** Since when the caller has been speaking (null: silent), and whether the recogniser said anything since. */
  private speechStartedAt: number | null = null;
  private heardSinceSpeech = false;
  private silentTimer: unknown = null;
  private readonly transcriberSilenceMs: number;

  constructor(
    private readonly clock: Clock,
    settings: Pick<CallSettings, "interruptionSensitivity" | "endOfTurn"> & {
      faults: Pick<CallSettings["faults"], "transcriberSilenceMs">;
    },
    private readonly hooks: CallerSideHooks,
    options: { streamed?: boolean } = {},
  ) {
    this.sensitivity = settings.interruptionSensitivity;
    this.transcriberSilenceMs = settings.faults.transcriberSilenceMs;
    this.arrival = options.streamed ? new StreamArrival(ENGINE_SAMPLE_RATE) : null;
    const { endSilenceMs } = turnSettings(this.sensitivity);
    this.turns = new TurnTaking(
      clock,
      {
        endOfTurn: { ...settings.endOfTurn, silenceMs: endSilenceMs },
        pauseMs: pauseMs(this.sensitivity),
        punctuates: () => this.sttProvider?.punctuates !== false,
      },
      { ...hooks, onSpeechEnd: () => this.onSpeechEnd() },
    );
  }

  get speaking(): boolean {
    return this.turns.callerSpeaking;
  }

  /**
   * Loads the detector and opens the recogniser. A detector that cannot load fails the call's
   * start; a recogniser that cannot be opened (every provider of its chain) is the fault policy's
   * to handle once the call has started, so it is returned, not thrown.
   */
  async open(loadVad: () => Promise<VoiceActivityModel>, stt: SttProvider): Promise<Error | null> {
    this.model = await loadVad();
    // The detector reports the short pause; the end-of-turn rules decide how long the turn waits.
    this.vad = new VadProcessor(this.model, {
      ...turnSettings(this.sensitivity),
      endSilenceMs: pauseMs(this.sensitivity),
    });
    this.sttProvider = stt;
    this.vad.onOutput((frame) => this.onFrame(frame));
    try {
      this.stt = await this.openRecogniser(stt);
      return null;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  /**
   * Another assistant listens with another recogniser (a hand-off): the new one is opened first
   * and takes the audio from the next frame, then the old one is closed, so no caller audio is lost.
   * Throws when the new one cannot be opened; the old one then keeps listening.
   */
  async replaceRecogniser(stt: SttProvider): Promise<void> {
    const session = await this.openRecogniser(stt);
    if (this.closed) {
      await session.close().catch(() => undefined);
      return;
    }
    const old = this.stt;
    this.stt = session;
    this.sttProvider = stt;
    await old?.close().catch(() => undefined);
  }

  private openRecogniser(stt: SttProvider): Promise<SttSession> {
    return stt.open({
      onTranscript: (event) => {
        // A late word of a recogniser already replaced belongs to nobody's turn.
        if (this.sttProvider !== stt) return;
        this.heardSinceSpeech = true;
        this.cancelSilentCheck();
        this.turns.onTranscript(event);
      },
      onError: (error) => {
        if (this.sttProvider === stt) this.hooks.onSttFailed(stt.id, error);
      },
    });
  }

  /** Caller audio of any length. */
  push(pcm: Int16Array): void {
    const vad = this.vad;
    if (!vad || this.closed) return;
    const now = this.clock.now();
    // The end of the caller's speech is when its audio arrived, not when a busy loop got to it.
    const receivedAt = this.arrival ? this.arrival.arrivedAt(now, pcm.length) : now;
    this.reframer.push(pcm, (frame) => vad.queueFrame({ type: "audio_in", pcm: frame, receivedAt }));
  }

  /** Stops turn-taking (the call is ending); audio is still accepted for the recording. */
  stop(): void {
    this.turns.stop();
    this.cancelSilentCheck();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.turns.stop();
    this.cancelSilentCheck();
    try {
      await this.stt?.close();
    } catch {
      // Closing a broken recogniser cannot fail the call's end.
    }
    this.model?.close();
  }

  private onFrame(frame: Frame): void {
    if (this.closed) return;
    if (frame.type === "audio_in") {
      this.stt?.sendAudio(frame.pcm);
      this.hooks.onFrame(frame.pcm);
    } else if (frame.type === "vad") {
      if (frame.speaking && this.speechStartedAt === null) {
        this.speechStartedAt = frame.receivedAt ?? this.clock.now();
        this.heardSinceSpeech = false;
      }
      this.turns.onVad(frame.speaking, frame.receivedAt, frame.speechEndedAt);
      this.hooks.onActivity();
    }
  }

  /**
   * The caller paused: the recogniser finalizes. Speech long enough to hold words that drew no
   * event at all from the recogniser (no partial, no final, no utterance end) within the fault
   * policy's wait — counted from the pause, plus the speech itself for a recogniser that only
   * starts work at the pause — means it has gone silent: it is re-opened (or the next one), and
   * the call says its recovery line. A recogniser running on this machine is not watched.
   */
  private onSpeechEnd(): void {
    this.stt?.finalize();
    const startedAt = this.speechStartedAt;
    this.speechStartedAt = null;
    const provider = this.sttProvider;
    if (startedAt === null || !provider || this.heardSinceSpeech || provider.id === ON_MACHINE) return;
    const speechMs = this.clock.now() - startedAt;
    if (speechMs < MIN_SPEECH_FOR_WORDS_MS) return;
    const wait = this.transcriberSilenceMs + (provider.streaming ? 0 : speechMs);
    this.cancelSilentCheck();
    this.silentTimer = this.clock.setTimeout(() => {
      this.silentTimer = null;
      if (this.heardSinceSpeech || this.closed) return;
      const failedId = provider.id;
      this.stt?.restart?.(new SilentTranscriberError(failedId, speechMs, wait));
      this.hooks.onSttSilent(failedId);
    }, wait);
  }

  private cancelSilentCheck(): void {
    if (this.silentTimer !== null) this.clock.clearTimeout(this.silentTimer);
    this.silentTimer = null;
  }
}
