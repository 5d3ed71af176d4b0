import { ProviderError } from "../provider-error.ts";
import { type StreamTimeouts, streamSse } from "../shared/sse-stream.ts";
import { LlmBase } from "../stage-bases.ts";
import type { ChatRequest, LlmChunk, NetworkDeps } from "../types.ts";
import { type AnthropicEvent, toAnthropicMessages, toAnthropicTools } from "./wire-format.ts";

export const ANTHROPIC_VERSION = "2023-06-01";

export interface AnthropicOptions {
  model: string;
  apiKey: string;
  /** API root, `https://api.anthropic.com` by default. */
  baseUrl: string;
  net: NetworkDeps;
  timeouts?: Partial<StreamTimeouts>;
}

/** `max_tokens` is mandatory in the Messages API; used when the request leaves it unset. */
const DEFAULT_MAX_TOKENS = 1024;

/** Streams Claude through the Messages API (`POST /v1/messages`, server-sent events). */
export class AnthropicLlm extends LlmBase {
  readonly id = "anthropic";
  readonly model: string;

  constructor(private readonly options: AnthropicOptions) {
    super();
    this.model = options.model;
  }

  protected async *run(request: ChatRequest): AsyncIterable<LlmChunk> {
    const { system, messages } = toAnthropicMessages(request.messages);
    const body: Record<string, unknown> = {
      model: this.model,
      max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
      messages,
      stream: true,
    };
    if (system) body.system = system;
    if (request.temperature !== undefined) body.temperature = Math.min(request.temperature, 1);
    if (request.tools?.length) body.tools = toAnthropicTools(request.tools);
    const events = streamSse({
      provider: this.id,
      url: `${this.options.baseUrl}/v1/messages`,
      headers: { "x-api-key": this.options.apiKey, "anthropic-version": ANTHROPIC_VERSION },
      body,
      net: this.options.net,
      signal: request.signal,
      timeouts: this.options.timeouts,
    });
    const state = new MessageState();
    for await (const event of events) {
      const parsed = parseEvent(event.data);
      if (!parsed) continue;
      yield* state.apply(parsed);
      if (parsed.type === "message_stop") return;
    }
  }
}

function parseEvent(data: string): AnthropicEvent | null {
  try {
    return JSON.parse(data) as AnthropicEvent;
  } catch {
    return null;
  }
}

/** Follows the content blocks of one streamed message and turns them into chunks. */
class MessageState {
  private readonly toolBlocks = new Map<number, { id: string; name: string; json: string }>();
  private inputTokens = 0;
  private outputTokens = 0;

  *apply(event: AnthropicEvent): Generator<LlmChunk> {
    switch (event.type) {
      case "message_start":
        this.inputTokens = event.message.usage?.input_tokens ?? 0;
        this.outputTokens = event.message.usage?.output_tokens ?? 0;
        return;
      case "content_block_start":
        if (event.content_block.type === "tool_use") {
          this.toolBlocks.set(event.index, {
            id: event.content_block.id ?? "",
            name: event.content_block.name ?? "",
            json: "",
          });
        } else if (event.content_block.type === "text" && event.content_block.text) {
          yield { type: "text", text: event.content_block.text };
        }
        return;
      case "content_block_delta":
        yield* this.delta(event.index, event.delta);
        return;
      case "content_block_stop": {
        const block = this.toolBlocks.get(event.index);
        if (!block) return;
        this.toolBlocks.delete(event.index);
        const args = block.json.trim() === "" ? "{}" : block.json;
        yield { type: "tool_call", call: { id: block.id, name: block.name, arguments: args } };
        return;
      }
      case "message_delta":
        if (event.usage?.output_tokens !== undefined) this.outputTokens = event.usage.output_tokens;
        return;
      case "message_stop":
        yield { type: "usage", inputTokens: this.inputTokens, outputTokens: this.outputTokens };
        return;
      case "error":
        throw streamError(event.error);
    }
  }

  private *delta(index: number, delta: { type: string; text?: string; partial_json?: string }): Generator<LlmChunk> {
    if (delta.type === "text_delta" && delta.text) yield { type: "text", text: delta.text };
    if (delta.type === "input_json_delta") {
      const block = this.toolBlocks.get(index);
      if (block) block.json += delta.partial_json ?? "";
    }
  }
}

/** Errors sent inside the stream (e.g. `overloaded_error`) after the 200 response. */
function streamError(error: { type: string; message: string }): ProviderError {
  const retryable = ["overloaded_error", "api_error", "rate_limit_error", "timeout_error"].includes(error.type);
  return new ProviderError("anthropic", `${error.type}: ${error.message}`, retryable);
}
