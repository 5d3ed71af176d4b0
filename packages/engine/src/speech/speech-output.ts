import type { FrameProcessor } from "../frames/frame-processor.ts";
import type { Playout } from "./playout.ts";

/** One thing the assistant says: a streamed LLM reply or a fixed message. */
export class Utterance {
  text = "";
  ended = false;
  interrupted = false;
  /** What the caller heard when it was interrupted; null while it was not. */
  heardText: string | null = null;
  /** Called with the heard words when the caller cuts it short. */
  onTruncate: ((heard: string) => void) | null = null;
  readonly done: Promise<void>;
  /** Text written but not yet sent into the pipeline (it waits behind earlier utterances). */
  buffered: string[] = [];
  private resolveDone!: () => void;

  constructor(
    readonly id: number,
    readonly interruptible: boolean,
    private readonly owner: SpeechOutput,
  ) {
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
  }

  /** Adds text to speak (streamed pieces are fine). */
  write(text: string): void {
    this.owner.write(this, text);
  }

  /** No more text will come. */
  end(): void {
    this.owner.end(this);
  }

  /** @internal */
  settle(): void {
    this.resolveDone();
  }
}

export interface SpeechOutputHooks {
  onStart?(utterance: Utterance): void;
  onDone?(utterance: Utterance): void;
}

/**
 * Orders what the assistant says: utterances are spoken one after another (a message said while a
 * reply streams waits its turn), and `interrupt` silences everything at once and records what
 * was heard of each.
 */
export class SpeechOutput {
  private pending: Utterance[] = [];
  private readonly unfinished = new Map<number, Utterance>();
  private playing: Utterance | null = null;
  private nextId = 1;

  constructor(
    private readonly head: FrameProcessor,
    private readonly playout: Playout,
    private readonly hooks: SpeechOutputHooks = {},
  ) {}

  /** True while anything is queued, being synthesized or playing. */
  get active(): boolean {
    return this.unfinished.size > 0;
  }

  /** True while an utterance's audio is going out. */
  get speaking(): boolean {
    return this.playing !== null;
  }

  /** True when every unfinished utterance may be cut short by the caller. */
  get interruptible(): boolean {
    for (const u of this.unfinished.values()) if (!u.interruptible) return false;
    return true;
  }

  /** Resolves when everything queued so far has been spoken (or cut short). */
  idle(): Promise<void> {
    return Promise.all([...this.unfinished.values()].map((u) => u.done)).then(() => undefined);
  }

  /** Starts a new utterance (queued behind any unfinished one). */
  begin(options: { interruptible?: boolean } = {}): Utterance {
    const u = new Utterance(this.nextId++, options.interruptible ?? true, this);
    this.pending.push(u);
    this.unfinished.set(u.id, u);
    return u;
  }

  /** Says a fixed text. */
  say(text: string, options: { interruptible?: boolean } = {}): Utterance {
    const u = this.begin(options);
    u.write(text);
    u.end();
    return u;
  }

  /** Silences everything; returns the utterances cut short, each with its `heardText`. */
  interrupt(): Utterance[] {
    const cut = [...this.unfinished.values()];
    for (const u of cut) {
      u.interrupted = true;
      u.heardText = this.playout.heardText(u.id);
      u.onTruncate?.(u.heardText);
    }
    this.unfinished.clear();
    this.pending = [];
    this.playing = null;
    this.head.queueFrame({ type: "interruption" });
    for (const u of cut) {
      this.playout.forget(u.id);
      u.settle();
      this.hooks.onDone?.(u);
    }
    return cut;
  }

  /** @internal */
  write(u: Utterance, text: string): void {
    if (u.interrupted || u.ended || !text) return;
    u.text += text;
    u.buffered.push(text);
    this.pump();
  }

  /** @internal */
  end(u: Utterance): void {
    if (u.interrupted || u.ended) return;
    u.ended = true;
    this.pump();
  }

  /** Playout hook: an utterance's first sample went out. */
  started(id: number): void {
    const u = this.unfinished.get(id);
    if (!u) return;
    this.playing = u;
    this.hooks.onStart?.(u);
  }

  /** Playout hook: an utterance's last sample went out. */
  finished(id: number): void {
    const u = this.unfinished.get(id);
    if (!u) return;
    this.unfinished.delete(id);
    this.playout.forget(id);
    if (this.playing === u) this.playing = null;
    u.settle();
    this.hooks.onDone?.(u);
  }

  private pump(): void {
    for (let u = this.pending[0]; u; u = this.pending[0]) {
      for (const text of u.buffered) this.head.queueFrame({ type: "llm_text", text, utterance: u.id });
      u.buffered = [];
      if (!u.ended) return;
      this.head.queueFrame({ type: "llm_end", utterance: u.id });
      this.pending.shift();
    }
  }
}
