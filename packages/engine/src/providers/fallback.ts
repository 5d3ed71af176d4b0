import { FallbackStage, streamWithFallback } from "./provider-chain.ts";
import type { AudioChunk, ChatRequest, LlmChunk, LlmProvider, SynthesizeOptions, TtsProvider } from "./types.ts";

export { FallbackStt } from "./fallback-stt.ts";
export type { FallbackOptions, FallbackSwitch, OnFallbackSwitch } from "./provider-chain.ts";

/**
 * A language model made of several: a request that fails before its first chunk is retried and
 * then re-issued to the next provider, so the caller never hears the switch.
 */
export class FallbackLlm extends FallbackStage<LlmProvider> implements LlmProvider {
  get model(): string {
    return this.current.model;
  }

  chat(request: ChatRequest): AsyncIterable<LlmChunk> {
    const open = (provider: LlmProvider) => {
      this.current = provider;
      return provider.chat(request);
    };
    return streamWithFallback("llm", this.chain, open, request.signal, this.onSwitch);
  }
}

/** A voice made of several: a sentence whose synthesis fails before any audio goes to the next provider. */
export class FallbackTts extends FallbackStage<TtsProvider> implements TtsProvider {
  get model(): string {
    return this.current.model;
  }

  get voice(): string {
    return this.current.voice;
  }

  synthesize(text: string, options?: SynthesizeOptions): AsyncIterable<AudioChunk> {
    const open = (provider: TtsProvider) => {
      this.current = provider;
      return provider.synthesize(text, options);
    };
    return streamWithFallback("tts", this.chain, open, options?.signal, this.onSwitch);
  }
}
