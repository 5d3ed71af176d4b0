import { ProviderError } from "../provider-error.ts";
import { type StreamTimeouts, streamSse } from "../shared/sse-stream.ts";
import { LlmBase } from "../stage-bases.ts";
import type { ChatRequest, LlmChunk, NetworkDeps } from "../types.ts";
import {
  type ChatCompletionChunk,
  ToolCallAccumulator,
  toChatMessages,
  toChatTools,
  type Usage,
} from "./wire-format.ts";

export interface ChatCompletionsOptions {
  /** Provider id reported in errors and metrics. */
  id: string;
  model: string;
  /** Full URL of the chat completions endpoint. */
  url: string;
  /** The vendor's auth headers. */
  headers: Record<string, string>;
  net: NetworkDeps;
  /** Omits `model` from the body (for vendors that route by a deployment in the URL). */
  omitModel?: boolean;
  /** Asks for a final usage chunk with `stream_options.include_usage`. */
  includeUsage?: boolean;
  /** The field name the vendor wants for the output cap. */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  timeouts?: Partial<StreamTimeouts>;
  /** Where the vendor reports token usage, when not in the standard `usage` field. */
  usageOf?: (chunk: ChatCompletionChunk) => Usage | null | undefined;
}

/** Streams an answer over the Chat Completions protocol, which many vendors and local servers speak. */
export class ChatCompletionsLlm extends LlmBase {
  readonly id: string;
  readonly model: string;

  constructor(private readonly options: ChatCompletionsOptions) {
    super();
    this.id = options.id;
    this.model = options.model;
  }

  protected async *run(request: ChatRequest): AsyncIterable<LlmChunk> {
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
      const reported = chunk.usage ?? this.options.usageOf?.(chunk);
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
      messages: toChatMessages(request.messages),
      stream: true,
    };
    if (!this.options.omitModel) body.model = this.model;
    if (this.options.includeUsage) body.stream_options = { include_usage: true };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.maxTokens !== undefined) body[this.options.maxTokensField ?? "max_tokens"] = request.maxTokens;
    if (request.tools?.length) {
      body.tools = toChatTools(request.tools);
      body.tool_choice = "auto";
    }
    return body;
  }

  private parse(data: string): ChatCompletionChunk | null {
    try {
      return JSON.parse(data) as ChatCompletionChunk;
    } catch {
      // A keep-alive or a vendor's non-JSON line: nothing the conversation needs.
      return null;
    }
  }

  private streamError(error: NonNullable<ChatCompletionChunk["error"]>): ProviderError {
    const kind = `${error.type ?? ""} ${error.code ?? ""}`;
    const retryable = !/invalid|auth|permission|not_found|context_length/i.test(kind);
    return new ProviderError(this.id, `stream error: ${error.message ?? kind.trim()}`, retryable);
  }
}
