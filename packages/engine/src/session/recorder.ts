import { concatPcm } from "../audio/pcm.ts";
import { encodeWav } from "../audio/wav.ts";
import { ENGINE_SAMPLE_RATE } from "../constants.ts";

/** Keeps both sides of the call for a stereo recording: caller left, assistant right. */
export class CallRecorder {
  private readonly caller: Int16Array[] = [];
  private readonly assistant: Int16Array[] = [];

  pushCaller(pcm: Int16Array): void {
    this.caller.push(pcm.slice());
  }

  pushAssistant(pcm: Int16Array): void {
    this.assistant.push(pcm);
  }

  /** The recording as a 16 kHz stereo WAV. */
  toWav(): Buffer {
    return encodeWav({ sampleRate: ENGINE_SAMPLE_RATE, channels: [concatPcm(this.caller), concatPcm(this.assistant)] });
  }
}
