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
