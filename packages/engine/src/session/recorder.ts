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

  pushCaller(pcm: Int16Array): void {
    this.caller.push(mulawEncode(pcm));
  }

  pushAssistant(pcm: Int16Array): void {
    this.assistant.push(mulawEncode(pcm));
  }

  /** Bytes of audio held so far (both channels). */
  heldBytes(): number {
    return [...this.caller, ...this.assistant].reduce((n, c) => n + c.length, 0);
  }

  /** The recording as a 16 kHz 16-bit stereo WAV (what every browser plays). */
  toWav(): Buffer {
    return encodeWav({
      sampleRate: ENGINE_SAMPLE_RATE,
      channels: [decodeAll(this.caller), decodeAll(this.assistant)],
    });
  }
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
}

/** How far one side may run ahead of the other before the silent side is filled with silence. */
const MAX_SKEW_SAMPLES = ENGINE_SAMPLE_RATE;
/**
 * Paired audio is written in pieces of 100 ms, not a frame at a time: one array and one sink
 * call per five frames of every call.
 */
const WRITE_SAMPLES = ENGINE_SAMPLE_RATE / 10;

/**
 * Streams the stereo recording as the call runs instead of holding it: both sides are paired
 * sample by sample and written out, so memory stays under a second of audio and nothing large is
 * built at hang-up. A side that falls more than a second behind (a muted caller) is filled with
 * silence, which keeps the two sides in step.
 */
export class StreamingRecorder {
  private readonly caller: Int16Array[] = [];
  private readonly assistant: Int16Array[] = [];
  private callerHeld = 0;
  private assistantHeld = 0;

  constructor(private readonly sink: RecordingSink) {}

  pushCaller(pcm: Int16Array): void {
    this.caller.push(pcm.slice());
    this.callerHeld += pcm.length;
    this.pump();
  }

  pushAssistant(pcm: Int16Array): void {
    this.assistant.push(pcm.slice());
    this.assistantHeld += pcm.length;
    this.pump();
  }

  /** Writes what is left, the shorter side padded with silence. */
  finish(): void {
    const rest = Math.max(this.callerHeld, this.assistantHeld);
    if (rest > 0) this.write(rest);
  }

  private pump(): void {
    const skew = Math.abs(this.callerHeld - this.assistantHeld);
    const ready = skew > MAX_SKEW_SAMPLES ? Math.max(this.callerHeld, this.assistantHeld) - MAX_SKEW_SAMPLES : 0;
    const paired = Math.max(Math.min(this.callerHeld, this.assistantHeld), ready);
    if (paired >= WRITE_SAMPLES || (ready > 0 && paired > 0)) this.write(paired);
  }

  private write(samples: number): void {
    const stereo = new Int16Array(samples * 2);
    take(this.caller, samples, stereo, 0);
    take(this.assistant, samples, stereo, 1);
    this.callerHeld = Math.max(0, this.callerHeld - samples);
    this.assistantHeld = Math.max(0, this.assistantHeld - samples);
    this.sink.write(stereo);
  }
}

/** Moves up to `samples` from the front of `chunks` into every other slot of `out` (silence when short). */
function take(chunks: Int16Array[], samples: number, out: Int16Array, channel: number): void {
  let i = 0;
  while (i < samples && chunks.length > 0) {
    const chunk = chunks[0] as Int16Array;
    const n = Math.min(samples - i, chunk.length);
    for (let j = 0; j < n; j++) out[(i + j) * 2 + channel] = chunk[j] as number;
    i += n;
    if (n === chunk.length) chunks.shift();
    else chunks[0] = chunk.subarray(n);
  }
}
