import type { SttOpenOptions, SttSession, TranscriptEvent } from "../../src/providers/types.ts";

/** Collects what an STT session reports and waits for a particular event. */
export class TranscriptRecorder {
  readonly events: TranscriptEvent[] = [];
  readonly errors: Error[] = [];
  private waiters: Array<() => void> = [];

  /** Open options that record into this recorder. */
  options(extra: Partial<SttOpenOptions> = {}): SttOpenOptions {
    return {
      onTranscript: (event) => this.push(() => this.events.push(event)),
      onError: (error) => this.push(() => this.errors.push(error)),
      ...extra,
    };
  }

  /** Resolves once `predicate` holds, or rejects after `timeoutMs` with what was seen. */
  async waitFor(predicate: () => boolean, what: string, timeoutMs = 3_000): Promise<void> {
    const started = Date.now();
    while (!predicate()) {
      if (Date.now() - started > timeoutMs) {
        throw new Error(`timed out waiting for ${what}; saw ${JSON.stringify(this.events)} ${this.errors.join("; ")}`);
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 20);
      });
    }
  }

  waitForEvent(match: (event: TranscriptEvent) => boolean, what: string, timeoutMs?: number): Promise<void> {
    return this.waitFor(() => this.events.some(match), what, timeoutMs);
  }

  finals(): string[] {
    return this.events.flatMap((event) => (event.type === "final" ? [event.text] : []));
  }

  private push(record: () => void): void {
    record();
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** `ms` of a 440 Hz tone at 16 kHz: speech-like audio with a recognisable sample pattern. */
export function tone(ms: number, sampleRate = 16_000): Int16Array {
  const samples = Math.round((sampleRate * ms) / 1000);
  const out = new Int16Array(samples);
  for (let i = 0; i < samples; i++) out[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate));
  return out;
}

/** Sends `ms` of audio in 20 ms frames, yielding to the event loop between frames like a live call. */
export async function speak(session: SttSession, ms: number, gapMs = 1): Promise<void> {
  const audio = tone(ms);
  for (let offset = 0; offset < audio.length; offset += 320) {
    session.sendAudio(audio.subarray(offset, offset + 320));
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
}
