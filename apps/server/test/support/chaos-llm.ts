import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTcpServer } from "node:net";
import type { NetworkDeps } from "@parley/engine";
import { listenOnLoopback } from "./loopback.ts";
import type { ChatRequestBody, ScriptedReply } from "./scripted-llm.ts";

/**
 * A Chat Completions server on 127.0.0.1 that can be told, request by request, to fail the way a
 * model vendor does: answer an HTTP error (401 bad key, 404 model not found, 429, 500, 503), hang
 * before its first token, cut its stream after some words, reset the connection, or send a tool
 * call whose arguments are not JSON (a ScriptedReply's raw `arguments`). Stopping it (`kill`) leaves
 * its port refusing connections, as a crashed server does.
 */

export type ChaosFault =
  /** An HTTP error with an OpenAI-style error body. */
  | { fault: "status"; status: number; message?: string }
  /** Answers 200 and the stream's opening chunk, then nothing (no first token). */
  | { fault: "hang" }
  /** Reads the request and never answers (not even headers). */
  | { fault: "hang_before_headers" }
  /** Streams the first `afterWords` words of `text`, then drops the connection mid-stream. */
  | { fault: "cut"; text: string; afterWords: number }
  /** Drops the connection without an answer. */
  | { fault: "reset" };

/** Words, then a tool call in the same reply (the way a model says "Goodbye!" and calls end_call). */
export type SpokenToolCall = { text: string; toolCall: { name: string; arguments: string } };

export type ChaosAnswer = ScriptedReply | SpokenToolCall | ChaosFault;

/** How the double answers one request: `n` counts the requests it got, from 0. */
export type ChaosScript = (request: ChatRequestBody, n: number) => ChaosAnswer;

export interface ChaosLlm {
  /** OpenAI-compatible base URL (ends in /v1). */
  baseUrl: string;
  origin: string;
  requests: ChatRequestBody[];
  /** Answers from now on by `script`. */
  play(script: ChaosScript): void;
  /** Stops listening and drops every open connection: its port refuses connections from now on. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<ChatRequestBody> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequestBody;
}

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  const body = {
    id: "chatcmpl-chaos",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

const words = (text: string) => text.split(/(?<= )/);

function startStream(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.write(chunk({ role: "assistant", content: "" }));
}

function reply(res: ServerResponse, answer: ScriptedReply | SpokenToolCall): void {
  startStream(res);
  if ("text" in answer) for (const word of words(answer.text)) res.write(chunk({ content: word }));
  if (!("toolCall" in answer)) {
    res.write(chunk({}, "stop"));
  } else {
    const call = {
      index: 0,
      id: `call_${Math.random().toString(36).slice(2, 10)}`,
      type: "function",
      function: answer.toolCall,
    };
    res.write(chunk({ tool_calls: [call] }));
    res.write(chunk({}, "tool_calls"));
  }
  res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } })}\n\n`);
  res.end("data: [DONE]\n\n");
}

/** OpenAI's error codes for the statuses a test asks for. */
const ERROR_CODES: Record<number, string> = {
  401: "invalid_api_key",
  404: "model_not_found",
  429: "rate_limit_exceeded",
  500: "server_error",
  503: "service_unavailable",
};

function answer(req: IncomingMessage, res: ServerResponse, planned: ChaosAnswer): void {
  if (!("fault" in planned)) {
    reply(res, planned);
    return;
  }
  switch (planned.fault) {
    case "status": {
      const code = ERROR_CODES[planned.status] ?? "error";
      const message = planned.message ?? `chaos: HTTP ${planned.status}`;
      res.writeHead(planned.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message, type: code, code } }));
      return;
    }
    case "hang":
      startStream(res);
      return;
    case "hang_before_headers":
      return;
    case "cut": {
      startStream(res);
      const said = words(planned.text)
        .slice(0, planned.afterWords)
        .map((word) => chunk({ content: word }));
      // Dropped once the words have been flushed, so they are on the wire when the stream breaks.
      res.write(said.join(""), () => req.socket.destroy());
      return;
    }
    case "reset":
      req.socket.destroy();
      return;
  }
}

export async function startChaosLlm(script: ChaosScript): Promise<ChaosLlm> {
  const requests: ChatRequestBody[] = [];
  let current = script;
  const server: Server = createServer(async (req, res) => {
    if (req.method === "GET" && req.url?.endsWith("/models")) {
      // A vendor's key check lists its models.
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: [{ id: "chaos" }] }));
      return;
    }
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    const body = await readJson(req);
    const n = requests.push(body) - 1;
    answer(req, res, current(body, n));
  });
  const { origin, close } = await listenOnLoopback(server);
  let killed: Promise<void> | null = null;
  const kill = () => {
    killed ??= close();
    return killed;
  };
  return {
    baseUrl: `${origin}/v1`,
    origin,
    requests,
    play(next) {
      current = next;
    },
    kill,
    close: kill,
  };
}

/** A base URL on a port of 127.0.0.1 where nothing listens (taken, then let go): connections are refused. */
export async function refusingBaseUrl(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

/** A base URL whose host does not resolve (`.invalid` never does): the request fails at DNS. */
export const UNRESOLVABLE_BASE_URL = "http://no-such-host.invalid/v1";

/**
 * The app's network with a vendor's API origin (https://api.groq.com) sent to a double's origin
 * instead, so a vendor with a fixed URL can be a call's backup model in a test.
 */
export function routeOrigin(base: NetworkDeps, from: string, to: string): NetworkDeps {
  const reroute = (url: string) => (url.startsWith(from) ? `${to}${url.slice(from.length)}` : url);
  return {
    ...base,
    // Vendors fetch by URL string; a Request object goes through untouched.
    fetch: (input, init) => base.fetch(input instanceof Request ? input : reroute(String(input)), init),
  };
}
