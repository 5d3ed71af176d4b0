import type { ProviderError } from "../src/providers/provider-error.ts";
import type { SpeechModelSink, ToolOutcome } from "../src/providers/shared/speech-model-client.ts";
import type { ToolCall } from "../src/providers/types.ts";

/**
 * What a speech-to-speech client reported to its sink, for the vendors' client tests, with a
 * playout stand-in (`heardMs`) that says how much of an interrupted item was heard.
 */
export class SpeechModelRecorder implements SpeechModelSink {
  audio = new Map<string, number>();
  transcripts: Array<{ role: string; text: string; final: boolean }> = [];
  tools: Array<{ call: ToolCall; result: ToolOutcome }> = [];
  faults: Array<{ error: ProviderError; fatal: boolean }> = [];
  truncated: Array<{ itemId: string; audioEndMs: number; transcript: string }> = [];
  /** Items whose audio was all given. */
  done: string[] = [];
  /** Each end of the caller's turn: true when the vendor timed it. */
  stopped: boolean[] = [];
  /** How often the caller was heard starting to speak. */
  started = 0;
  /** Milliseconds the stand-in playout has played of the interrupted item. */
  heardMs = 0;
  private waiters: Array<() => void> = [];

  onAudio(itemId: string, pcm: Int16Array) {
    this.audio.set(itemId, (this.audio.get(itemId) ?? 0) + pcm.length);
    this.wake();
  }
  onInterrupted() {
    return this.heardMs;
  }
  onTruncated(itemId: string, audioEndMs: number, transcript: string) {
    this.truncated.push({ itemId, audioEndMs, transcript });
    this.wake();
  }
  onAudioDone(itemId: string) {
    this.done.push(itemId);
    this.wake();
  }
  onTranscript(role: "user" | "assistant", text: string, final: boolean) {
    this.transcripts.push({ role, text, final });
    this.wake();
  }
  onCallerStarted() {
    this.started++;
  }
  onCallerStopped(timed: boolean) {
    this.stopped.push(timed);
  }
  onToolCall(call: ToolCall, result: ToolOutcome) {
    this.tools.push({ call, result });
    this.wake();
  }
  onFault(error: ProviderError, fatal: boolean) {
    this.faults.push({ error, fatal });
    this.wake();
  }
  /** Resolves once `condition` holds, re-checked after each report. */
  until(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => (condition() ? resolve() : this.waiters.push(check));
      check();
    });
  }
  finals(role: "user" | "assistant") {
    return this.transcripts.filter((t) => t.role === role && t.final).map((t) => t.text);
  }
  protected wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
