import type { Clock } from "./types.ts";

/**
 * The caller's silence: after `seconds` with nobody speaking, prompt; after `maxAttempts` prompts
 * in a row go unanswered, give up.
 */
export class SilenceTimeout {
  private timer: unknown = null;
  private attempts = 0;

  constructor(
    private readonly clock: Clock,
    private readonly seconds: number,
    private readonly maxAttempts: number,
    private readonly onPrompt: (attempt: number) => void,
    private readonly onGiveUp: () => void,
  ) {}

  /** Starts counting (the assistant finished and the caller has the floor). */
  arm(): void {
    if (this.timer !== null) return;
    this.timer = this.clock.setTimeout(() => this.fire(), this.seconds * 1000);
  }

  /** Stops counting (someone is speaking). */
  disarm(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** The caller said something: the prompts start over. */
  answered(): void {
    this.attempts = 0;
    this.disarm();
  }

  private fire(): void {
    this.timer = null;
    if (this.attempts >= this.maxAttempts) {
      this.onGiveUp();
      return;
    }
    this.attempts++;
    this.onPrompt(this.attempts);
  }
}
