import { Resampler } from "../../audio/resample.ts";
import type { SpeechModelSink } from "../shared/speech-model-client.ts";
import type { LiveServerContent } from "./server-messages.ts";
import { pcmRate } from "./setup-message.ts";

/** The engine's audio rate: assistant audio goes out at 16 kHz. */
const ENGINE_RATE = 16_000;

/** One model turn as received: the Live API names no items, so the client numbers its turns. */
interface OutputTurn {
  id: string;
  /** Created at the turn's first audio part, at the rate its MIME type names. */
  resampler: Resampler | null;
  rate: number;
  receivedSamples: number;
  transcript: string;
  audioDone: boolean;
  /** The caller spoke over it: audio still in flight is dropped. */
  cut: boolean;
  /** Played to its end before the caller spoke: nothing to cut. */
  heardAll: boolean;
  final: boolean;
}

type ModelPart = NonNullable<NonNullable<LiveServerContent["modelTurn"]>["parts"]>[number];

/**
 * The turns of a Live conversation from its `serverContent`: the model's audio parts (resampled to
 * the engine's 16 kHz per turn), both sides' transcripts, `interrupted` (the caller spoke over the
 * model), `generationComplete` and `turnComplete`. The vendor truncates its own context on an
 * interruption (there is no client truncate), so the client only stops the playout and reports
 * the share the caller heard, computed as for any vendor.
 */
export class LiveTurns {
  private count = 0;
  /** The turn being generated (until `turnComplete`). */
  private current: OutputTurn | null = null;
  /** The latest turn, whose audio may still be playing after its `turnComplete`. */
  private last: OutputTurn | null = null;
  private callerSpeaking = false;
  private callerText = "";
  private callerTurns = 0;

  constructor(private readonly sink: SpeechModelSink) {}

  /** The caller started speaking: `voiceActivity` ACTIVITY_START (`stop`: the playout stops too), or their words. */
  callerStarted(stop: boolean): void {
    if (stop) this.interrupt();
    if (this.callerSpeaking) return;
    this.callerSpeaking = true;
    this.sink.onCallerStarted?.();
  }

  /** `voiceActivity` ACTIVITY_END: the vendor heard the speech stop, so the turn's latency starts now. */
  callerStopped(): void {
    if (!this.callerSpeaking) return;
    this.callerSpeaking = false;
    this.sink.onCallerStopped?.(true);
  }

  /** One `serverContent`, whose fields may come together (audio, transcripts and flags in one message). */
  content(content: LiveServerContent): void {
    if (content.interrupted) {
      this.finishCaller();
      this.callerStarted(true);
    }
    const heard = content.inputTranscription;
    if (heard?.text) this.callerWords(heard.text);
    if (heard?.finished) this.finishCaller();
    for (const part of content.modelTurn?.parts ?? []) this.audio(part);
    const said = content.outputTranscription?.text;
    if (said) this.assistantWords(said);
    if (content.generationComplete && this.current) this.audioDone(this.current);
    if (content.turnComplete) this.turnComplete();
  }

  /**
   * The caller's words, in pieces. The vendor sends them independently of the model's turn, so
   * pieces arriving while the model answers are late words of the turn it answers, not new speech:
   * only words heard while the model is silent mark the caller as speaking. The turn's text is
   * final at `finished`, at the model's `turnComplete`, or when the caller interrupts again.
   */
  private callerWords(text: string): void {
    if (!this.callerSpeaking && !this.current) this.callerStarted(false);
    this.callerText += text;
    this.sink.onTranscript("user", this.callerText.trim(), false, `caller_${this.callerTurns + 1}`);
  }

  private finishCaller(): void {
    const text = this.callerText.trim();
    this.callerText = "";
    if (!text) return;
    this.sink.onTranscript("user", text, true, `caller_${++this.callerTurns}`);
  }

  /** The model's reply began: the caller's turn is over (known only now unless `voiceActivity` said so). */
  private startTurn(): OutputTurn {
    if (this.callerSpeaking) {
      this.callerSpeaking = false;
      this.sink.onCallerStopped?.(false);
    }
    const turn: OutputTurn = {
      id: `turn_${++this.count}`,
      resampler: null,
      rate: 0,
      receivedSamples: 0,
      transcript: "",
      audioDone: false,
      cut: false,
      heardAll: false,
      final: false,
    };
    this.current = turn;
    this.last = turn;
    this.sink.onResponseStarted?.(turn.id);
    return turn;
  }

  private audio(part: ModelPart): void {
    const data = part.inlineData;
    if (!data || part.thought || !(data.mimeType ?? "audio/pcm").startsWith("audio/pcm")) return;
    const turn = this.current ?? this.startTurn();
    if (turn.cut || turn.audioDone) return;
    if (!turn.resampler) {
      turn.rate = pcmRate(data.mimeType);
      turn.resampler = new Resampler(turn.rate, ENGINE_RATE);
    }
    const bytes = Buffer.from(data.data, "base64");
    const pcm = new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 2)).slice();
    turn.receivedSamples += pcm.length;
    const out = turn.resampler.process(pcm);
    if (out.length > 0) this.sink.onAudio(turn.id, out);
  }

  private assistantWords(text: string): void {
    const turn = this.current ?? this.startTurn();
    turn.transcript += text;
    if (!turn.cut) this.sink.onTranscript("assistant", turn.transcript.trim(), false, turn.id);
  }

  private audioDone(turn: OutputTurn): void {
    if (turn.audioDone || turn.cut) return;
    turn.audioDone = true;
    const tail = turn.resampler?.flush();
    if (tail && tail.length > 0) this.sink.onAudio(turn.id, tail);
    this.sink.onAudioDone?.(turn.id);
  }

  /** The connection under the turn was lost: the turn ends as received (its audio done, its text final). */
  endTurn(): void {
    this.turnComplete();
  }

  private turnComplete(): void {
    this.finishCaller();
    const turn = this.current;
    if (!turn) return;
    this.audioDone(turn);
    this.current = null;
    const text = turn.transcript.trim();
    if (text && !turn.final) {
      turn.final = true;
      this.sink.onTranscript("assistant", text, true, turn.id);
    }
  }

  /**
   * The caller spoke over the latest turn: its playout stops, and unless it had played to its end
   * the listener is told how much was heard (the vendor keeps only that much in its context).
   */
  private interrupt(): void {
    const turn = this.current ?? this.last;
    if (!turn || turn.cut || turn.heardAll) return;
    const receivedMs = turn.rate > 0 ? Math.floor((turn.receivedSamples * 1000) / turn.rate) : 0;
    const playedMs = Math.max(0, Math.floor(this.sink.onInterrupted(turn.id)));
    if (turn.audioDone && playedMs >= receivedMs) {
      turn.heardAll = true;
      return;
    }
    turn.cut = true;
    this.sink.onTruncated?.(turn.id, Math.min(playedMs, receivedMs), turn.transcript.trim());
  }
}
