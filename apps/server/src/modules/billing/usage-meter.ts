import { COST_ASSUMPTIONS } from "@parley/contract";
import type { ChatMessage, LlmChunk, LlmProvider, TtsProvider } from "@parley/engine";

/** What one call consumed of its model and voice, counted as it runs. */
export interface MeteredUsage {
  llmInputTokens: number;
  llmOutputTokens: number;
  /** Characters sent to the voice to be spoken (interrupted speech included: it was synthesized). */
  ttsCharacters: number;
}

const tokensOf = (characters: number) => Math.ceil(characters / COST_ASSUMPTIONS.charsPerToken);

function messageCharacters(message: ChatMessage): number {
  const calls = message.role === "assistant" ? (message.toolCalls ?? []) : [];
  return message.content.length + calls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
}

/**
 * Whether a model request that reported no token counts is billed on estimate. One the vendor answered
 * (a first chunk came, or the stream ended), or one the call stopped itself (the caller interrupted),
 * was received and (partly) generated: the vendor bills it. One that failed before any answer never
 * left the server (connection refused, DNS, TLS) or was refused by the vendor (an HTTP error status,
 * which vendors do not bill): 0 tokens.
 */
function billedOnEstimate(request: { answered: boolean; failed: boolean; stoppedByCaller: boolean }): boolean {
  return request.answered || !request.failed || request.stoppedByCaller;
}

/**
 * Wraps a call's model and voice to count what they used. The model's own token counts are used when
 * it reports them (a `usage` chunk); a model that reports none is counted at four characters a token
 * of what was sent and received, the same rule the per-minute estimate uses.
 */
export class UsageMeter {
  private readonly totals: MeteredUsage = { llmInputTokens: 0, llmOutputTokens: 0, ttsCharacters: 0 };

  usage(): MeteredUsage {
    return { ...this.totals };
  }

  wrap<P extends { llm: LlmProvider; tts: TtsProvider }>(providers: P): P {
    return { ...providers, llm: this.wrapModel(providers.llm), tts: this.meterTts(providers.tts) };
  }

  /** A call's providers and their backups: whichever of a chain answers is counted. */
  wrapChains<P extends { llm: LlmProvider; tts: TtsProvider; fallbacks: { llm: LlmProvider[]; tts: TtsProvider[] } }>(
    providers: P,
  ): P {
    const { fallbacks } = providers;
    return {
      ...this.wrap(providers),
      fallbacks: {
        ...fallbacks,
        llm: fallbacks.llm.map((llm) => this.wrapModel(llm)),
        tts: fallbacks.tts.map((tts) => this.meterTts(tts)),
      },
    };
  }

  /** The model alone (post-call analysis uses no voice). */
  wrapModel(llm: LlmProvider): LlmProvider {
    const totals = this.totals;
    return {
      id: llm.id,
      model: llm.model,
      async *chat(request) {
        let reported = false;
        let answered = false;
        let failed = false;
        let outputCharacters = 0;
        try {
          for await (const chunk of llm.chat(request) as AsyncIterable<LlmChunk>) {
            answered = true;
            if (chunk.type === "usage") {
              reported = true;
              totals.llmInputTokens += chunk.inputTokens;
              totals.llmOutputTokens += chunk.outputTokens;
            } else if (chunk.type === "text") outputCharacters += chunk.text.length;
            else outputCharacters += chunk.call.name.length + chunk.call.arguments.length;
            yield chunk;
          }
        } catch (error) {
          failed = true;
          throw error;
        } finally {
          if (!reported && billedOnEstimate({ answered, failed, stoppedByCaller: request.signal?.aborted === true })) {
            totals.llmInputTokens += tokensOf(request.messages.reduce((n, m) => n + messageCharacters(m), 0));
            totals.llmOutputTokens += tokensOf(outputCharacters);
          }
        }
      },
    };
  }

  private meterTts(tts: TtsProvider): TtsProvider {
    const totals = this.totals;
    return {
      id: tts.id,
      model: tts.model,
      voice: tts.voice,
      synthesize(text, options) {
        totals.ttsCharacters += text.length;
        return tts.synthesize(text, options);
      },
    };
  }
}
