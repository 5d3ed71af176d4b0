import type { BackgroundMixer } from "../audio/background.ts";
import { rms } from "../audio/pcm.ts";
import { Resampler } from "../audio/resample.ts";
import type { Clock } from "../clock/clock.ts";
import { AUDIBLE_RMS, ENGINE_SAMPLE_RATE, FRAME_MS, SAMPLES_PER_FRAME } from "../constants.ts";
import { FrameProcessor } from "../frames/frame-processor.ts";
import type { DataFrame, SystemFrame } from "../frames/frames.ts";

export interface PlayoutHooks {
  /** The first sample of an utterance went out. */
  onUtteranceStart?(utterance: number): void;
  /**
   * The first frame in which an utterance can be heard (its own samples, before any ambience) has
   * been handed on: what the caller waited for, as leading silence from the voice does not count.
   */
  onUtteranceAudible?(utterance: number): void;
  /** A sentence started playing; `spoken` is the utterance's text up to and including it. */
  onSentenceStart?(utterance: number, spoken: string): void;
  /** An utterance's last sample went out (or it had no audio). */
  onUtteranceDone?(utterance: number): void;
}

type Segment =
  | { kind: "audio"; pcm: Int16Array; offset: number; sentence: number; utterance: number }
  | { kind: "end"; utterance: number };

interface SentenceRecord {
  utterance: number;
  text: string;
  samples: number;
  played: number;
}

/** Frames to emit at once after a stall before the pacing restarts from now. */
const MAX_CATCH_UP = 5;

/**
 * The assistant's mouth: buffers synthesized audio and sends it out as 20 ms `audio_out` frames
 * paced by the clock, silence (plus ambience) when there is nothing to say. It counts the
 * samples played of every sentence so an interruption knows which words the caller heard.
 */
export class Playout extends FrameProcessor {
  private segments: Segment[] = [];
  private queuedSamples = 0;
  private readonly sentences = new Map<number, SentenceRecord>();
  private readonly started = new Set<number>();
  private readonly audible = new Set<number>();
  private timer: unknown = null;
  private running = false;
  private origin = 0;
  private emitted = 0;

  /** The reply's own audio as the caller's line carries it (null: the line is as wide as the engine's audio). */
  private line: Resampler | null;
  /** On a narrow line: the utterance whose samples went out but were not yet audible on it. */
  private unheard: number | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly hooks: PlayoutHooks = {},
    private readonly background: BackgroundMixer | null = null,
    /** The sample rate of the caller's line (8000 on a G.711 phone line); audibility is judged on it. */
    private readonly lineRate: number = ENGINE_SAMPLE_RATE,
  ) {
    super();
    this.line = this.narrowLine();
  }

  private narrowLine(): Resampler | null {
    return this.lineRate < ENGINE_SAMPLE_RATE ? new Resampler(ENGINE_SAMPLE_RATE, this.lineRate) : null;
  }

  /** Starts the real-time frame clock. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.origin = this.clock.now();
    this.emitted = 0;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** The words of `utterance` played so far (whole sentences, then a share of the current one by samples). */
  heardText(utterance: number): string {
    const parts: string[] = [];
    for (const rec of this.sentences.values()) {
      if (rec.utterance !== utterance || rec.played <= 0) continue;
      if (rec.played >= rec.samples) {
        parts.push(rec.text);
        continue;
      }
      const words = rec.text.split(/\s+/);
      const count = Math.floor((words.length * rec.played) / rec.samples);
      if (count > 0) parts.push(words.slice(0, count).join(" "));
    }
    return parts.join(" ");
  }

  /** The whole sentences of `utterance` that have started playing. */
  private startedText(utterance: number): string {
    const parts: string[] = [];
    for (const rec of this.sentences.values()) if (rec.utterance === utterance && rec.played > 0) parts.push(rec.text);
    return parts.join(" ");
  }

  /** Drops the bookkeeping of a finished utterance. */
  forget(utterance: number): void {
    for (const [id, rec] of this.sentences) if (rec.utterance === utterance) this.sentences.delete(id);
    this.started.delete(utterance);
    this.audible.delete(utterance);
  }

  protected override process(frame: DataFrame): void {
    if (frame.type === "sentence") {
      this.sentences.set(frame.sentence, { utterance: frame.utterance, text: frame.text, samples: 0, played: 0 });
    } else if (frame.type === "tts_audio") {
      const rec = this.sentences.get(frame.sentence);
      if (rec) rec.samples += frame.pcm.length;
      const wasIdle = this.queuedSamples === 0;
      this.segments.push({
        kind: "audio",
        pcm: frame.pcm,
        offset: 0,
        sentence: frame.sentence,
        utterance: frame.utterance,
      });
      this.queuedSamples += frame.pcm.length;
      // Speech that starts from silence goes out now rather than at the next tick.
      if (wasIdle) this.kick();
    } else if (frame.type === "llm_end") {
      this.segments.push({ kind: "end", utterance: frame.utterance });
      this.finishLeadingMarkers();
    } else {
      this.push(frame);
    }
  }

  protected override handleSystem(frame: SystemFrame): void {
    if (frame.type === "interruption") {
      this.segments = [];
      this.queuedSamples = 0;
      // What was cut is not heard later, and its tail must not make the next reply count as heard.
      this.unheard = null;
      this.line = this.narrowLine();
    }
    super.handleSystem(frame);
  }

  private schedule(): void {
    const due = this.origin + this.emitted * FRAME_MS;
    this.timer = this.clock.setTimeout(() => this.onTimer(), Math.max(0, due - this.clock.now()));
  }

  private onTimer(): void {
    this.timer = null;
    if (!this.running) return;
    const now = this.clock.now();
    let due = Math.floor((now - this.origin) / FRAME_MS) + 1 - this.emitted;
    if (due > MAX_CATCH_UP) {
      this.origin = now;
      this.emitted = 0;
      due = 1;
    }
    for (let i = 0; i < due && this.running; i++) {
      this.emitted++;
      this.emitFrame();
    }
    if (this.running) this.schedule();
  }

  private kick(): void {
    if (!this.running) return;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.origin = this.clock.now();
    this.emitted = 0;
    this.onTimer();
  }

  private emitFrame(): void {
    const out = new Int16Array(SAMPLES_PER_FRAME);
    const finished: number[] = [];
    let heard: number | null = null;
    let filled = 0;
    while (filled < out.length && this.segments.length > 0) {
      const seg = this.segments[0] as Segment;
      if (seg.kind === "end") {
        finished.push(seg.utterance);
        this.segments.shift();
        continue;
      }
      if (!this.started.has(seg.utterance)) {
        this.started.add(seg.utterance);
        this.hooks.onUtteranceStart?.(seg.utterance);
      }
      const take = Math.min(out.length - filled, seg.pcm.length - seg.offset);
      const part = seg.pcm.subarray(seg.offset, seg.offset + take);
      if (this.line && take > 0 && !this.audible.has(seg.utterance)) this.unheard = seg.utterance;
      if (!this.line && heard === null && !this.audible.has(seg.utterance) && rms(part) >= AUDIBLE_RMS) {
        this.audible.add(seg.utterance);
        heard = seg.utterance;
      }
      out.set(part, filled);
      filled += take;
      seg.offset += take;
      this.queuedSamples -= take;
      const rec = this.sentences.get(seg.sentence);
      const sentenceStarts = rec !== undefined && rec.played === 0 && take > 0;
      if (rec) rec.played += take;
      if (sentenceStarts) this.hooks.onSentenceStart?.(seg.utterance, this.startedText(seg.utterance));
      if (seg.offset >= seg.pcm.length) this.segments.shift();
    }
    // On a narrow line the reply is heard once its own audio, band-limited as the line carries it,
    // is audible there: a voice's breathy onset above 4 kHz never reaches a phone caller.
    const onLine = this.line?.process(out);
    if (onLine && this.unheard !== null && rms(onLine) >= AUDIBLE_RMS) {
      this.audible.add(this.unheard);
      heard = this.unheard;
      this.unheard = null;
    }
    this.background?.mixInto(out);
    this.push({ type: "audio_out", pcm: out });
    // After the push: the frame is with the transport when the caller's wait is taken to end.
    if (heard !== null) this.hooks.onUtteranceAudible?.(heard);
    for (const u of finished) this.hooks.onUtteranceDone?.(u);
    this.finishLeadingMarkers();
  }

  /** Utterances whose audio has all gone out end now, not a frame later. */
  private finishLeadingMarkers(): void {
    while (this.segments[0]?.kind === "end") {
      const seg = this.segments.shift() as Segment;
      this.hooks.onUtteranceDone?.(seg.utterance);
    }
  }
}
