import { createServer, type IncomingMessage, type Server } from "node:http";
import { listenOnLoopback } from "./loopback.ts";

/** What the scripted model answers to one chat request. */
export type ScriptedReply = { text: string } | { toolCall: { name: string; arguments: string } };

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content?: string | null; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string } }[];
}

/** How the scripted model answers: one reply per chat request. */
export type ModelScript = (request: ChatRequestBody) => ScriptedReply;

export interface ScriptedLlm {
  /** OpenAI-compatible base URL (ends in /v1). */
  baseUrl: string;
  requests: ChatRequestBody[];
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<ChatRequestBody> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequestBody;
}

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  const body = {
    id: "chatcmpl-test",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/**
 * A tiny OpenAI-compatible chat server on 127.0.0.1 that streams (SSE) whatever `script` decides
 * for each request, word by word, so a call's language model is deterministic.
 */
export async function startScriptedLlm(script: ModelScript): Promise<ScriptedLlm> {
  const requests: ChatRequestBody[] = [];
  const server: Server = createServer(async (req, res) => {
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    const body = await readJson(req);
    requests.push(body);
    const reply = script(body);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(chunk({ role: "assistant", content: "" }));
    if ("text" in reply) {
      for (const word of reply.text.split(/(?<= )/)) res.write(chunk({ content: word }));
      res.write(chunk({}, "stop"));
    } else {
      const call = { index: 0, id: "call_1", type: "function", function: reply.toolCall };
      res.write(chunk({ tool_calls: [call] }));
      res.write(chunk({}, "tool_calls"));
    }
    res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } })}\n\n`);
    res.end("data: [DONE]\n\n");
  });
  const { origin, close } = await listenOnLoopback(server);
  return { baseUrl: `${origin}/v1`, requests, close };
}

/** The last message the caller said or typed in a chat request. */
export function lastUserText(request: ChatRequestBody): string {
  return [...request.messages].reverse().find((m) => m.role === "user")?.content ?? "";
}

/**
 * A model that searches the knowledge base for any question (when it is offered the search) and
 * then reads the first result out; anything else gets `otherwise`.
 */
export function searchingModel(otherwise: string): ModelScript {
  return (request) => {
    const result = request.messages.findLast((m) => m.role === "tool")?.content;
    if (result) {
      const parsed = JSON.parse(result) as { results: { text: string }[] };
      return { text: parsed.results[0]?.text ?? "I could not find that." };
    }
    const offered = request.tools?.map((tool) => tool.function.name) ?? [];
    const said = lastUserText(request);
    if (said.endsWith("?") && offered.includes("search_knowledge"))
      return { toolCall: { name: "search_knowledge", arguments: JSON.stringify({ query: said }) } };
    return { text: otherwise };
  };
}
