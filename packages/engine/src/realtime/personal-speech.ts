import type { RecordingChannel } from "../session/recorder.ts";
import type { PiiVault } from "../text/pii-vault.ts";

/** The two recorders' common part: where a side's next sample goes, and silencing a stretch of it. */
export interface SilenceableRecording {
  position(channel: RecordingChannel): number;
  silence(channel: RecordingChannel, from: number, to: number): void;
}

const CALLER: RecordingChannel = 0;
const ASSISTANT: RecordingChannel = 1;
/**
 * Audio before the vendor's speech-started event that still belongs to the turn: its voice
 * detector reports speech after its prefix padding (300 ms by default) and the onset it needed.
 * Half a second at 16 kHz, as the pipeline allows.
 */
const SPEECH_ONSET_SAMPLES = 8_000;
/** Assistant items remembered: a transcript arrives while its item plays, or just after. */
const RECENT_ITEMS = 8;

interface ItemSpan {
  /** The item's first recorded sample; null until a frame of it has played. */
  from: number | null;
  personal: boolean;
}

/**
 * PII redaction on a speech-to-speech call's recording: a caller turn or an assistant item whose
 * words held personal data (the vendor's transcript, checked by the call's vault) is silenced
 * whole, as the vendors give no word timings. The caller's turn runs from the vendor's
 * speech-started event to its final transcript; an assistant item from its first played frame to
 * its last, including frames played after its transcript came.
 */
export class PersonalSpeechSilencer {
  private callerFrom: number | null = null;
  private readonly items = new Map<string, ItemSpan>();

  constructor(
    private readonly pii: PiiVault,
    private readonly recording: SilenceableRecording,
  ) {}

  callerStarted(): void {
    this.callerFrom ??= this.recording.position(CALLER);
  }

  /** The caller's final transcript of the turn that started at `callerStarted`. */
  callerSaid(text: string): void {
    const from = this.callerFrom;
    this.callerFrom = null;
    if (from === null || !this.pii.holdsPii(text)) return;
    this.recording.silence(CALLER, Math.max(0, from - SPEECH_ONSET_SAMPLES), this.recording.position(CALLER));
  }

  /** A frame of `itemId` was recorded from sample `from` up to the assistant side's position now. */
  assistantPlayed(itemId: string, from: number): void {
    const span = this.span(itemId);
    span.from ??= from;
    if (span.personal) this.recording.silence(ASSISTANT, from, this.recording.position(ASSISTANT));
  }

  /** The assistant's final transcript of `itemId`: what was played of it so far is silenced, and the rest as it plays. */
  assistantSaid(itemId: string, text: string): void {
    if (!this.pii.holdsPii(text)) return;
    const span = this.span(itemId);
    span.personal = true;
    if (span.from !== null) this.recording.silence(ASSISTANT, span.from, this.recording.position(ASSISTANT));
  }

  private span(itemId: string): ItemSpan {
    let span = this.items.get(itemId);
    if (!span) {
      span = { from: null, personal: false };
      this.items.set(itemId, span);
      if (this.items.size > RECENT_ITEMS) {
        const oldest = this.items.keys().next().value;
        if (oldest !== undefined) this.items.delete(oldest);
      }
    }
    return span;
  }
}
