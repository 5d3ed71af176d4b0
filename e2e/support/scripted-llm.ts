import { createServer, type Server } from "node:http";

export interface ScriptedLlm {
  /** Base URL to give an assistant's openai-compatible provider (ends in /v1). */
  baseUrl: string;
  /** The chat requests received, newest last. */
  requests: { messages: { role: string; content: unknown }[] }[];
  stop(): Promise<void>;
}

/**
 * A local model server speaking the OpenAI Chat Completions streaming protocol (SSE chunks,
 * then `data: [DONE]`), answering every request with the next scripted reply.
 */
export async function startScriptedLlm(replies: string[]): Promise<ScriptedLlm> {
  const requests: ScriptedLlm["requests"] = [];
  let turn = 0;
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
      requests.push(JSON.parse(body) as ScriptedLlm["requests"][number]);
      const reply = replies[Math.min(turn, replies.length - 1)] ?? "";
      turn += 1;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({
          id: `chatcmpl-${turn}`,
          object: "chat.completion.chunk",
          created: Math.floor(Date.now() / 1000),
          model: "scripted",
          choices: [{ index: 0, delta, finish_reason: finish }],
        })}\n\n`;
      res.write(chunk({ role: "assistant", content: "" }));
      for (const word of reply.split(/(?<= )/)) res.write(chunk({ content: word }));
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
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
