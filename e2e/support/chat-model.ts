import { createServer, type Server } from "node:http";

/** A chat request as the product sends it to an OpenAI-compatible model. */
export interface ChatRequest {
  messages: { role: string; content: unknown }[];
  stream?: boolean;
}

export interface ChatModel {
  /** Base URL to give an assistant's openai-compatible provider (ends in /v1). */
  baseUrl: string;
  /** The chat requests received, newest last. */
  requests: ChatRequest[];
  stop(): Promise<void>;
}

/** The system prompt of a chat request ("" without one). */
export const systemPromptOf = (request: ChatRequest) =>
  String(request.messages.find((m) => m.role === "system")?.content ?? "");

/**
 * A local model server speaking the OpenAI Chat Completions protocol, answering each request with
 * `answer(request)`: streamed word by word as SSE chunks then `data: [DONE]`, or as one JSON
 * completion when the request asks for no stream.
 */
export async function startChatModel(answer: (request: ChatRequest) => string): Promise<ChatModel> {
  const requests: ChatRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "no" } }));
        return;
      }
      const request = JSON.parse(body) as ChatRequest;
      requests.push(request);
      const text = answer(request);
      const id = `chatcmpl-${requests.length}`;
      if (request.stream === false) {
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id,
            object: "chat.completion",
            model: "scripted",
            choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({
          id,
          object: "chat.completion.chunk",
          created: Math.floor(Date.now() / 1000),
          model: "scripted",
          choices: [{ index: 0, delta, finish_reason: finish }],
        })}\n\n`;
      res.write(chunk({ role: "assistant", content: "" }));
      for (const word of text.split(/(?<= )/)) res.write(chunk({ content: word }));
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    stop: () =>
      new Promise((resolve) => {
        // A call's model stream may still be open: the double does not wait for the product to hang up.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
