import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local HTTP server on 127.0.0.1 that answers the test-run routes as a test tells it to, and keeps
 * every request it got, so the CLI's requests, retries and exit codes are tested over real sockets.
 */

export interface StubRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export interface StubAnswer {
  /** 0: the connection is dropped without an answer, as a crashing server or a broken proxy does. */
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface StubApi {
  url: string;
  requests: StubRequest[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : JSON.parse(text);
}

export async function startStubApi(answer: (request: StubRequest) => StubAnswer): Promise<StubApi> {
  const requests: StubRequest[] = [];
  const server = createServer(async (req, res) => {
    const request: StubRequest = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      authorization: req.headers.authorization,
      body: await readBody(req),
    };
    requests.push(request);
    const reply = answer(request);
    if (reply.status === 0) {
      req.socket.destroy();
      return;
    }
    const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers }).end(text);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/** A port nothing listens on: one the system gave and took back. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}
