import type { Clock } from "../session/types.ts";

/** The longest a line waits for a reply that never shows its audio (a reply of function calls only). */
const OPEN_REPLY_LIMIT_MS = 3_000;

/**
 * Holds what the engine asks a speech-to-speech model to say (a workflow's farewell, a hand-off's
 * line) until the model's own reply is over: the vendor answers the caller by itself, and a second
 * request while that reply is generated is refused (Realtime API) or cuts it off (Live API). A reply is
 * open from its start until its audio is done or cut; one that shows no audio is given
 * `OPEN_REPLY_LIMIT_MS`.
 */
export class ReplyGate {
  private readonly generating = new Set<string>();
  private openReply: unknown = null;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly clock: Clock) {}

  /** The model began a reply (its audio may follow). */
  started(): void {
    this.clearOpen();
    this.openReply = this.clock.setTimeout(() => {
      this.openReply = null;
      this.flush();
    }, OPEN_REPLY_LIMIT_MS);
  }

  /** Audio of item `itemId` is coming. */
  audio(itemId: string): void {
    this.clearOpen();
    this.generating.add(itemId);
  }

  /** Item `itemId` has all its audio, or was cut by the caller. */
  done(itemId: string): void {
    this.generating.delete(itemId);
    this.flush();
  }

  /** The reply turned into function calls (their answer is asked for by the client itself). */
  calledTools(): void {
    this.clearOpen();
    this.flush();
  }

  /** Runs `send` now when the model is not replying, else once its reply is over. */
  whenIdle(send: () => void): void {
    this.waiting.push(send);
    this.flush();
  }

  /** The call ended: nothing more is sent. */
  close(): void {
    this.clearOpen();
    this.waiting.length = 0;
  }

  private get busy(): boolean {
    return this.openReply !== null || this.generating.size > 0;
  }

  /** One line at a time: what is sent is a reply of its own, which the next waits behind. */
  private flush(): void {
    const send = this.busy ? undefined : this.waiting.shift();
    if (!send) return;
    send();
    this.started();
  }

  private clearOpen(): void {
    if (this.openReply === null) return;
    this.clock.clearTimeout(this.openReply);
    this.openReply = null;
  }
}
