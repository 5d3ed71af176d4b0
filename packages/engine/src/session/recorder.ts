import { mulawDecode, mulawEncode } from "../audio/mulaw.ts";
import { encodeWav } from "../audio/wav.ts";
import { ENGINE_SAMPLE_RATE } from "../constants.ts";

/** Bytes per second of the recording kept in memory: two channels of 8-bit μ-law at 16 kHz. */
export const RECORDING_BYTES_PER_SECOND = 2 * ENGINE_SAMPLE_RATE;

/**
 * Keeps both sides of the call for a stereo recording: caller left, assistant right. The audio is
 * held as μ-law (telephone quality, half the size of 16-bit PCM), so a call of the default three
 * minutes keeps under 6 MB and the engine stays within its memory budget per call.
 */
export class CallRecorder {
  private readonly caller: Uint8Array[] = [];
  private readonly assistant: Uint8Array[] = [];
  private readonly samples: [number, number] = [0, 0];
  /** Ranges silenced before the WAV is built (redacted speech). */
  private readonly silenced: SilencedRange[] = [];

  pushCaller(pcm: Int16Array): void {
    this.caller.push(mulawEncode(pcm));
    this.samples[CALLER] += pcm.length;
  }

  pushAssistant(pcm: Int16Array): void {
    this.assistant.push(mulawEncode(pcm));
    this.samples[ASSISTANT] += pcm.length;
  }

  /** Samples recorded so far on a side: where its next sample goes. */
  position(channel: RecordingChannel): number {
    return this.samples[channel];
  }

  /** Silences samples [from, to) of one side (personal data said there). */
  silence(channel: RecordingChannel, from: number, to: number): void {
    this.silenced.push({ channel, from, to });
  }

  /** Bytes of audio held so far (both channels). */
  heldBytes(): number {
    return [...this.caller, ...this.assistant].reduce((n, c) => n + c.length, 0);
  }

  /** The recording as a 16 kHz 16-bit stereo WAV (what every browser plays). */
  toWav(): Buffer {
    const channels: [Int16Array, Int16Array] = [decodeAll(this.caller), decodeAll(this.assistant)];
    for (const { channel, from, to } of this.silenced) channels[channel].fill(0, from, to);
    return encodeWav({ sampleRate: ENGINE_SAMPLE_RATE, channels });
  }
}

/** 0: the caller (left), 1: the assistant (right). */
export type RecordingChannel = 0 | 1;
const CALLER = 0;
const ASSISTANT = 1;

interface SilencedRange {
  channel: RecordingChannel;
  from: number;
  to: number;
}

function decodeAll(chunks: Uint8Array[]): Int16Array {
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return mulawDecode(bytes);
}

/** Where a streamed recording goes: interleaved stereo 16-bit PCM at 16 kHz, caller left. */
export interface RecordingSink {
  write(stereo: Int16Array): void;
  /**
   * Silences samples [from, to) of one side of audio already written (counted from the recording's
   * first sample), at the latest before the file is finished. A sink without it keeps such audio.
   */
  silence?(channel: RecordingChannel, from: number, to: number): void;
}

/** How far one side may run ahead of the other before the silent side is filled with silence. */
const MAX_SKEW_SAMPLES = ENGINE_SAMPLE_RATE;
/**
 * Audio is written a second at a time (64 KB), not a frame at a time: one array, one sink call
 * and one file write per second of every call.
 */
const WRITE_SAMPLES = ENGINE_SAMPLE_RATE;

/**
 * Streams the stereo recording as the call runs instead of holding it: each side's samples go
 * straight into their slots of one interleaved buffer as they arrive, and whole seconds of it are
 * written out, so memory stays within two seconds of audio per call and nothing large is built at
 * hang-up. A side that falls more than a second behind (a muted caller) is filled with silence,
 * which keeps the two sides in step.
 */
export class StreamingRecorder {
  /**
   * Interleaved stereo, caller left, from sample `start` on; every slot past a side's held
   * samples is zero. Written seconds are skipped, not moved: the rest moves to the front only
   * once the buffer is full.
   */
  private stereo = new Int16Array(2 * (2 * WRITE_SAMPLES + MAX_SKEW_SAMPLES));
  private start = 0;
  private callerHeld = 0;
  private assistantHeld = 0;
  /** Samples per side already handed to the sink. */
  private written = 0;

  constructor(private readonly sink: RecordingSink) {}

  /** Samples recorded so far on a side: where its next sample goes. */
  position(channel: RecordingChannel): number {
    return this.written + (channel === CALLER ? this.callerHeld : this.assistantHeld);
  }

  /**
   * Silences samples [from, to) of one side (personal data said there): what is still held is
   * zeroed here, what was written already is the sink's to silence.
   */
  silence(channel: RecordingChannel, from: number, to: number): void {
    const held = channel === CALLER ? this.callerHeld : this.assistantHeld;
    const end = Math.min(to, this.written + held);
    if (from < this.written) this.sink.silence?.(channel, from, Math.min(end, this.written));
    for (let at = Math.max(from, this.written); at < end; at++) {
      this.stereo[2 * (this.start + at - this.written) + channel] = 0;
    }
  }

  pushCaller(pcm: Int16Array): void {
    this.place(pcm, 0, this.callerHeld);
    this.callerHeld += pcm.length;
    this.pump();
  }

  pushAssistant(pcm: Int16Array): void {
    this.place(pcm, 1, this.assistantHeld);
    this.assistantHeld += pcm.length;
    this.pump();
  }

  /** Writes what is left, the shorter side padded with silence. */
  finish(): void {
    const rest = Math.max(this.callerHeld, this.assistantHeld);
    if (rest > 0) this.write(rest);
  }

  private place(pcm: Int16Array, channel: number, at: number): void {
    const needed = 2 * (this.start + at + pcm.length);
    if (needed > this.stereo.length) this.makeRoom(2 * (at + pcm.length));
    const stereo = this.stereo;
    const base = 2 * (this.start + at) + channel;
    for (let j = 0; j < pcm.length; j++) stereo[base + 2 * j] = pcm[j] as number;
  }

  /** Moves the held audio to the front (and grows the buffer if it still does not fit). */
  private makeRoom(needed: number): void {
    const held = 2 * Math.max(this.callerHeld, this.assistantHeld);
    const from = 2 * this.start;
    if (needed <= this.stereo.length) {
      this.stereo.copyWithin(0, from, from + held);
      this.stereo.fill(0, held, from + held);
    } else {
      const grown = new Int16Array(Math.max(needed, 2 * this.stereo.length));
      grown.set(this.stereo.subarray(from, from + held));
      this.stereo = grown;
    }
    this.start = 0;
  }

  private pump(): void {
    // A side more than a second behind gets silence up to a second behind (its slots are zero).
    if (this.callerHeld - this.assistantHeld > MAX_SKEW_SAMPLES)
      this.assistantHeld = this.callerHeld - MAX_SKEW_SAMPLES;
    if (this.assistantHeld - this.callerHeld > MAX_SKEW_SAMPLES)
      this.callerHeld = this.assistantHeld - MAX_SKEW_SAMPLES;
    const paired = Math.min(this.callerHeld, this.assistantHeld);
    if (paired >= WRITE_SAMPLES) this.write(paired);
  }

  /** Writes the first `samples` of both sides (a side holding fewer is silence there). */
  private write(samples: number): void {
    const from = 2 * this.start;
    this.sink.write(this.stereo.slice(from, from + 2 * samples));
    // The written slots go back to silence, so a side that held fewer stays silent past its end.
    this.stereo.fill(0, from, from + 2 * samples);
    this.start += samples;
    this.written += samples;
    this.callerHeld = Math.max(0, this.callerHeld - samples);
    this.assistantHeld = Math.max(0, this.assistantHeld - samples);
    if (this.callerHeld === 0 && this.assistantHeld === 0) this.start = 0;
  }
}
