import type { ScriptedEvent } from "./mock-server.ts";

function response(parts: Record<string, unknown>[], finishReason?: string, usage?: boolean): ScriptedEvent {
  return {
    candidates: [{ content: { role: "model", parts }, ...(finishReason ? { finishReason } : {}), index: 0 }],
    ...(usage ? { usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 4, totalTokenCount: 13 } } : {}),
    modelVersion: "gemini-2.5-flash",
  };
}

/** A `streamGenerateContent?alt=sse` stream: text pieces, then optional function calls, usage last. */
export function geminiStream(
  pieces: string[],
  calls: { name: string; args: Record<string, unknown>; thoughtSignature?: string }[] = [],
): ScriptedEvent[] {
  const events = pieces.map((text) => response([{ text }]));
  if (calls.length > 0) {
    events.push(
      response(
        calls.map(({ name, args, thoughtSignature }) => ({
          functionCall: { name, args },
          ...(thoughtSignature ? { thoughtSignature } : {}),
        })),
      ),
    );
  }
  events.push(response([{ text: "" }], "STOP", true));
  return events;
}
