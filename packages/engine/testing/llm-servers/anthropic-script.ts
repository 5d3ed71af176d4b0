import type { ScriptedEvent } from "./mock-server.ts";

const ev = (event: string, data: Record<string, unknown>): ScriptedEvent => ({ event, data: { type: event, ...data } });

function start(inputTokens: number): ScriptedEvent {
  return ev("message_start", {
    message: {
      id: "msg_test",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [],
      stop_reason: null,
      usage: { input_tokens: inputTokens, output_tokens: 1 },
    },
  });
}

function finish(stopReason: string, outputTokens: number): ScriptedEvent[] {
  return [
    ev("message_delta", {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: outputTokens },
    }),
    ev("message_stop", {}),
  ];
}

/** A Messages API stream: text in `pieces`, then optionally one tool_use block with `toolJson` in fragments. */
export function anthropicStream(
  pieces: string[],
  tool?: { id: string; name: string; json: string; pieceLength?: number },
): ScriptedEvent[] {
  const events: ScriptedEvent[] = [start(25), ev("ping", {})];
  events.push(ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }));
  for (const text of pieces) events.push(ev("content_block_delta", { index: 0, delta: { type: "text_delta", text } }));
  events.push(ev("content_block_stop", { index: 0 }));
  if (tool) {
    events.push(
      ev("content_block_start", {
        index: 1,
        content_block: { type: "tool_use", id: tool.id, name: tool.name, input: {} },
      }),
    );
    const size = tool.pieceLength ?? 5;
    for (let at = 0; at < tool.json.length; at += size) {
      const partial = tool.json.slice(at, at + size);
      events.push(ev("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: partial } }));
    }
    events.push(ev("content_block_stop", { index: 1 }));
  }
  events.push(...finish(tool ? "tool_use" : "end_turn", 15));
  return events;
}
