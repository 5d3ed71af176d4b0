import { ProviderError } from "../providers/provider-error.ts";
import { type StreamTimeouts, streamSse } from "../providers/sse-stream.ts";
import type { ChatRequest, LlmChunk, LlmProvider, NetworkDeps } from "../providers/types.ts";
import { type OpenAiStreamChunk, ToolCallAccumulator, toOpenAiMessages, toOpenAiTools } from "./openai-format.ts";

export interface OpenAiCompatibleOptions {
  /** Provider id reported in errors and metrics ("openai", "groq", …). */
  id: string;
  model: string;
  /** Full URL of the chat completions endpoint. */
  url: string;
  /** Vendor auth headers (`authorization: Bearer …`, or Azure's `api-key`). */
  headers: Record<string, string>;
  net: NetworkDeps;
  /** Omits `model` from the body (Azure routes by deployment in the URL). */
  omitModel?: boolean;
  /** Asks for a final usage chunk with `stream_options.include_usage`. */
  includeUsage?: boolean;
  /** The field name the vendor wants for the output cap. */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  timeouts?: Partial<StreamTimeouts>;
}

/** Streams Chat Completions from OpenAI and every server that speaks its protocol. */
export class OpenAiCompatibleLlm implements LlmProvider {
  readonly id: string;
  readonly model: string;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.id = options.id;
    this.model = options.model;
  }

  async *chat(request: ChatRequest): AsyncIterable<LlmChunk> {
    const events = streamSse({
      provider: this.id,
      url: this.options.url,
      headers: this.options.headers,
      body: this.body(request),
      net: this.options.net,
      signal: request.signal,
      timeouts: this.options.timeouts,
    });
    const toolCalls = new ToolCallAccumulator();
    let usage: LlmChunk | null = null;
    for await (const event of events) {
      if (event.data === "[DONE]") break;
      const chunk = this.parse(event.data);
      if (!chunk) continue;
      if (chunk.error) throw this.streamError(chunk.error);
      const reported = chunk.usage ?? chunk.x_groq?.usage;
      if (reported) {
        usage = {
          type: "usage",
          inputTokens: reported.prompt_tokens ?? 0,
          outputTokens: reported.completion_tokens ?? 0,
        };
      }
      for (const choice of chunk.choices ?? []) {
        const text = choice.delta?.content;
        if (text) yield { type: "text", text };
        if (choice.delta?.tool_calls) toolCalls.add(choice.delta.tool_calls);
        if (choice.finish_reason) yield* toolCalls.drain();
      }
    }
    // Some servers end the stream without a finish_reason; calls still pending are complete now.
    yield* toolCalls.drain();
    if (usage) yield usage;
  }

  private body(request: ChatRequest): Record<string, unknown> {
    const body: Record<string, unknown> = {
      messages: toOpenAiMessages(request.messages),
      stream: true,
    };
    if (!this.options.omitModel) body.model = this.model;
    if (this.options.includeUsage) body.stream_options = { include_usage: true };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.maxTokens !== undefined) body[this.options.maxTokensField ?? "max_tokens"] = request.maxTokens;
    if (request.tools?.length) {
      body.tools = toOpenAiTools(request.tools);
      body.tool_choice = "auto";
    }
    return body;
  }

  private parse(data: string): OpenAiStreamChunk | null {
    try {
      return JSON.parse(data) as OpenAiStreamChunk;
    } catch {
      // A keep-alive or a vendor's non-JSON line: nothing the conversation needs.
      return null;
    }
  }

  private streamError(error: NonNullable<OpenAiStreamChunk["error"]>): ProviderError {
    const kind = `${error.type ?? ""} ${error.code ?? ""}`;
    const retryable = !/invalid|auth|permission|not_found|context_length/i.test(kind);
    return new ProviderError(this.id, `stream error: ${error.message ?? kind.trim()}`, retryable);
  }
}
