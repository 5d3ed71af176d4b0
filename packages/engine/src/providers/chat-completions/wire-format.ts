import type { ChatMessage, LlmChunk, ToolCall, ToolSpec } from "../types.ts";

/** A message in the Chat Completions wire format. */
export type ChatCompletionMessage =
  | { role: "system" | "user"; content: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
    }
  | { role: "tool"; tool_call_id: string; content: string };

export function toChatMessages(messages: ChatMessage[]): ChatCompletionMessage[] {
  return messages.map((message): ChatCompletionMessage => {
    switch (message.role) {
      case "system":
      case "user":
        return { role: message.role, content: message.content };
      case "assistant":
        if (!message.toolCalls?.length) return { role: "assistant", content: message.content };
        return {
          role: "assistant",
          content: message.content || null,
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: call.arguments || "{}" },
          })),
        };
      default:
        return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    }
  });
}

export function toChatTools(tools: ToolSpec[]) {
  return tools.map((tool) => ({
    type: "function" as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

export interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

/** One `data:` payload of a streamed chat completion (only the fields we read; vendors add their own). */
export interface ChatCompletionChunk {
  [vendorField: string]: unknown;
  choices?: {
    delta?: {
      content?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: Usage | null;
  error?: { message?: string; type?: string; code?: string | number };
}

/**
 * Rebuilds whole tool calls from `delta.tool_calls` fragments: the id and name come first, the
 * JSON arguments trickle in afterwards, each fragment naming the call by its `index`.
 */
export class ToolCallAccumulator {
  private readonly calls = new Map<number, { id: string; name: string; arguments: string }>();

  add(fragments: NonNullable<NonNullable<ChatCompletionChunk["choices"]>[number]["delta"]>["tool_calls"]): void {
    for (const [position, fragment] of (fragments ?? []).entries()) {
      const index = fragment.index ?? position;
      const call = this.calls.get(index) ?? { id: "", name: "", arguments: "" };
      if (fragment.id) call.id = fragment.id;
      if (fragment.function?.name) call.name += fragment.function.name;
      if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
      this.calls.set(index, call);
    }
  }

  /** The complete calls, in index order; empties the accumulator. */
  drain(): LlmChunk[] {
    const chunks = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]): LlmChunk => ({ type: "tool_call", call: complete(call) }));
    this.calls.clear();
    return chunks;
  }
}

function complete(call: { id: string; name: string; arguments: string }): ToolCall {
  return {
    id: call.id || `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`,
    name: call.name,
    arguments: call.arguments.trim() === "" ? "{}" : call.arguments,
  };
}
