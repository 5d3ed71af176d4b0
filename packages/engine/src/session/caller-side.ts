import { Reframer } from "../audio/reframer.ts";
import { StreamArrival } from "../audio/stream-arrival.ts";
import { ENGINE_SAMPLE_RATE, SAMPLES_PER_FRAME } from "../constants.ts";
import type { Frame } from "../frames/frames.ts";
import type { SttProvider, SttSession } from "../providers/types.ts";
import { type InterruptionSensitivity, pauseMs, turnSettings } from "../vad/turn-detector.ts";
import { VadProcessor } from "../vad/vad-processor.ts";
import type { VoiceActivityModel } from "../vad/voice-activity.ts";
import type { CallSettings } from "./call-settings.ts";
import { TurnTaking, type TurnTakingHooks } from "./turn-taking.ts";
import type { Clock } from "./types.ts";

export interface CallerSideHooks extends Omit<TurnTakingHooks, "onSpeechEnd"> {
  /** Every 20 ms caller frame (tone detection). */
  onFrame(pcm: Int16Array): void;
  onError(message: string): void;
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

  constructor(
    private readonly clock: Clock,
    settings: Pick<CallSettings, "interruptionSensitivity" | "endOfTurn">,
    private readonly hooks: CallerSideHooks,
    options: { streamed?: boolean } = {},
  ) {
    this.sensitivity = settings.interruptionSensitivity;
    this.arrival = options.streamed ? new StreamArrival(ENGINE_SAMPLE_RATE) : null;
    const { endSilenceMs } = turnSettings(this.sensitivity);
    this.turns = new TurnTaking(
      clock,
      {
        endOfTurn: { ...settings.endOfTurn, silenceMs: endSilenceMs },
        pauseMs: pauseMs(this.sensitivity),
        punctuates: () => this.sttProvider?.punctuates !== false,
      },
      { ...hooks, onSpeechEnd: () => this.stt?.finalize() },
    );
  }

  get speaking(): boolean {
    return this.turns.callerSpeaking;
  }

  /** Loads the detector and opens the recogniser. */
  async open(loadVad: () => Promise<VoiceActivityModel>, stt: SttProvider): Promise<void> {
    this.model = await loadVad();
    // The detector reports the short pause; the end-of-turn rules decide how long the turn waits.
    this.vad = new VadProcessor(this.model, {
      ...turnSettings(this.sensitivity),
      endSilenceMs: pauseMs(this.sensitivity),
    });
    this.sttProvider = stt;
    this.vad.onOutput((frame) => this.onFrame(frame));
    this.stt = await stt.open({
      onTranscript: (event) => this.turns.onTranscript(event),
      onError: (error) => this.hooks.onError(`Speech recognition failed: ${error.message}`),
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
  }

  async close(): Promise<void> {
    this.closed = true;
    this.turns.stop();
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
      this.turns.onVad(frame.speaking, frame.receivedAt, frame.speechEndedAt);
      this.hooks.onActivity();
    }
  }
}
