import type {
  AudioChunk,
  ChatRequest,
  LlmChunk,
  LlmProvider,
  SynthesizeOptions,
  TtsProvider,
} from "../providers/types.ts";

/**
 * The model and the voice of a call whose assistant can change mid-call (a squad's hand-off): the
 * speech pipeline and the conversation hold these, and a hand-off points them at the next
 * assistant's guarded chains. A request already under way finishes on the provider it began with.
 */
export class SwitchableLlm implements LlmProvider {
  constructor(private current: LlmProvider) {}

  get id(): string {
    return this.current.id;
  }

  get model(): string {
    return this.current.model;
  }

  /** The next requests go to `next`. */
  use(next: LlmProvider): void {
    this.current = next;
  }

  chat(request: ChatRequest): AsyncIterable<LlmChunk> {
    return this.current.chat(request);
  }
}

/** The voice counterpart of `SwitchableLlm`: the next sentence is spoken by the new voice. */
export class SwitchableTts implements TtsProvider {
  constructor(private current: TtsProvider) {}

  get id(): string {
    return this.current.id;
  }

  get model(): string {
    return this.current.model;
  }

  get voice(): string {
    return this.current.voice;
  }

  use(next: TtsProvider): void {
    this.current = next;
  }

  synthesize(text: string, options?: SynthesizeOptions): AsyncIterable<AudioChunk> {
    return this.current.synthesize(text, options);
  }
}
