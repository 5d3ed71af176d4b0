import { MergedTurns } from "../shared/merged-turns.ts";
import type { ChatMessage, ToolSpec } from "../types.ts";

type ContentBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: unknown }
  | { type: "tool_result"; tool_use_id: string; content: string };

export interface AnthropicMessage {
  role: "user" | "assistant";
  content: ContentBlock[];
}

/**
 * Splits the conversation into Anthropic's top-level `system` text and strictly alternating
 * user/assistant messages; tool results travel as `tool_result` blocks of a user message.
 */
export function toAnthropicMessages(messages: ChatMessage[]): { system: string; messages: AnthropicMessage[] } {
  const system: string[] = [];
  const out = new MergedTurns(
    (turn: AnthropicMessage) => turn.content,
    (role, content) => ({ role, content }),
  );
  for (const message of messages) {
    switch (message.role) {
      case "system":
        system.push(message.content);
        break;
      case "user":
        out.append("user", textBlocks(message.content));
        break;
      case "assistant":
        out.append("assistant", [
          ...textBlocks(message.content),
          ...(message.toolCalls ?? []).map(
            (call): ContentBlock => ({
              type: "tool_use",
              id: call.id,
              name: call.name,
              input: parseInput(call.arguments),
            }),
          ),
        ]);
        break;
      case "tool":
        out.append("user", [{ type: "tool_result", tool_use_id: message.toolCallId, content: message.content }]);
        break;
    }
  }
  return { system: system.join("\n\n"), messages: out.turns };
}

export function toAnthropicTools(tools: ToolSpec[]) {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
}

function textBlocks(text: string): ContentBlock[] {
  // Empty text blocks are rejected by the API.
  return text.trim() === "" ? [] : [{ type: "text", text }];
}

function parseInput(json: string): unknown {
  try {
    const value = JSON.parse(json || "{}") as unknown;
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

/** The streamed events we read (Messages API, `stream: true`). */
export type AnthropicEvent =
  | { type: "message_start"; message: { usage?: { input_tokens?: number; output_tokens?: number } } }
  | {
      type: "content_block_start";
      index: number;
      content_block: { type: string; id?: string; name?: string; text?: string };
    }
  | {
      type: "content_block_delta";
      index: number;
      delta:
        | { type: "text_delta"; text: string }
        | { type: "input_json_delta"; partial_json: string }
        | { type: string };
    }
  | { type: "content_block_stop"; index: number }
  | { type: "message_delta"; usage?: { output_tokens?: number } }
  | { type: "message_stop" }
  | { type: "ping" }
  | { type: "error"; error: { type: string; message: string } };
