import type { ScriptedEvent } from "./mock-server.ts";

const base = { id: "chatcmpl-test", object: "chat.completion.chunk", created: 1_700_000_000, model: "gpt-4o-mini" };

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): ScriptedEvent {
  return { ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

/** A Chat Completions stream of `pieces` of text, a usage chunk and `[DONE]`. */
export function openAiTextStream(
  pieces: string[],
  usage = { prompt_tokens: 12, completion_tokens: 7 },
): ScriptedEvent[] {
  return [
    chunk({ role: "assistant", content: "" }),
    ...pieces.map((content) => chunk({ content })),
    chunk({}, "stop"),
    { ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } },
    "[DONE]",
  ];
}

export interface ScriptedToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Parallel tool calls streamed the way OpenAI does it: each call's id and name first, then its
 * arguments cut into `pieceLength`-character fragments, the calls' fragments interleaved.
 */
export function openAiToolCallStream(calls: ScriptedToolCall[], pieceLength = 4): ScriptedEvent[] {
  const events: ScriptedEvent[] = [chunk({ role: "assistant", content: null })];
  calls.forEach((call, index) => {
    events.push(
      chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
  });
  const pieces = calls.map((call) => call.arguments.match(new RegExp(`.{1,${pieceLength}}`, "gs")) ?? []);
  const longest = Math.max(...pieces.map((list) => list.length));
  for (let step = 0; step < longest; step++) {
    pieces.forEach((list, index) => {
      const piece = list[step];
      if (piece !== undefined) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
  }
  events.push(chunk({}, "tool_calls"));
  events.push({ ...base, choices: [], usage: { prompt_tokens: 30, completion_tokens: 20, total_tokens: 50 } });
  events.push("[DONE]");
  return events;
}
