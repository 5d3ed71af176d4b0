import { ProviderError } from "../provider-error.ts";
import { type StreamTimeouts, streamSse } from "../shared/sse-stream.ts";
import { LlmBase } from "../stage-bases.ts";
import type { ChatRequest, LlmChunk, NetworkDeps } from "../types.ts";
import { type GeminiStreamChunk, toGeminiContents, toGeminiTools } from "./wire-format.ts";

export interface GeminiOptions {
  model: string;
  apiKey: string;
  /** API root, `https://generativelanguage.googleapis.com` by default. */
  baseUrl: string;
  net: NetworkDeps;
  timeouts?: Partial<StreamTimeouts>;
}

/** Streams Gemini through `models/{model}:streamGenerateContent?alt=sse`. */
export class GeminiLlm extends LlmBase {
  readonly id = "google";
  readonly model: string;
  /** Thought signatures of the function calls this instance produced, by call id. */
  private readonly signatures = new Map<string, string>();

  constructor(private readonly options: GeminiOptions) {
    super();
    this.model = options.model.replace(/^models\//, "");
  }

  protected async *run(request: ChatRequest): AsyncIterable<LlmChunk> {
    const generationConfig: Record<string, unknown> = {};
    if (request.temperature !== undefined) generationConfig.temperature = request.temperature;
    if (request.maxTokens !== undefined) generationConfig.maxOutputTokens = request.maxTokens;
    const body: Record<string, unknown> = { ...toGeminiContents(request.messages, this.signatures), generationConfig };
    if (request.tools?.length) body.tools = toGeminiTools(request.tools);
    const events = streamSse({
      provider: this.id,
      url: `${this.options.baseUrl}/v1beta/models/${encodeURIComponent(this.model)}:streamGenerateContent?alt=sse`,
      headers: { "x-goog-api-key": this.options.apiKey },
      body,
      net: this.options.net,
      signal: request.signal,
      timeouts: this.options.timeouts,
    });
    let usage: LlmChunk | null = null;
    for await (const event of events) {
      const chunk = parse(event.data);
      if (!chunk) continue;
      if (chunk.error) throw streamError(chunk.error);
      if (chunk.usageMetadata) {
        usage = {
          type: "usage",
          inputTokens: chunk.usageMetadata.promptTokenCount ?? 0,
          outputTokens: chunk.usageMetadata.candidatesTokenCount ?? 0,
        };
      }
      yield* this.parts(chunk);
    }
    if (usage) yield usage;
  }

  private *parts(chunk: GeminiStreamChunk): Generator<LlmChunk> {
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      if (part.thought) continue;
      if (part.text) yield { type: "text", text: part.text };
      if (part.functionCall) {
        // Gemini sends each call whole; older models give no id, so one is made up for the tool turn.
        const id = part.functionCall.id || `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
        if (part.thoughtSignature) this.signatures.set(id, part.thoughtSignature);
        const args = JSON.stringify(part.functionCall.args ?? {});
        yield { type: "tool_call", call: { id, name: part.functionCall.name, arguments: args } };
      }
    }
  }
}

function parse(data: string): GeminiStreamChunk | null {
  try {
    const value = JSON.parse(data) as GeminiStreamChunk | GeminiStreamChunk[];
    return Array.isArray(value) ? (value[0] ?? null) : value;
  } catch {
    return null;
  }
}

function streamError(error: NonNullable<GeminiStreamChunk["error"]>): ProviderError {
  const status = error.code ?? 500;
  const retryable = status === 408 || status === 429 || status >= 500;
  return new ProviderError("google", `${error.status ?? "error"}: ${error.message ?? ""}`, retryable, status);
}
