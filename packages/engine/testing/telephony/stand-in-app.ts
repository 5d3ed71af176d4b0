import { createServer, type IncomingHttpHeaders } from "node:http";
import { type WebSocket, WebSocketServer } from "ws";

/**
 * A stand-in for Parley in the doubles' self-tests: an HTTP server for the webhooks and a WebSocket
 * server for the media stream on one port, each driven by the test. Not Parley's code: it lets a
 * double be exercised with plain HTTP and WebSocket clients.
 */

export interface StandInRequest {
  method: string;
  /** The full URL as the vendor called it (http://127.0.0.1:<port>/path?query). */
  url: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface StandInAnswer {
  status: number;
  contentType?: string;
  body?: string;
}

export interface StandInApp {
  origin: string;
  wsOrigin: string;
  requests: StandInRequest[];
  sockets: WebSocket[];
  close(): Promise<void>;
}

export async function startStandInApp(handlers: {
  http(request: StandInRequest): StandInAnswer | Promise<StandInAnswer>;
  /** `url` is the handshake's path and query; `headers` its request headers. */
  socket(socket: WebSocket, url: string, headers: IncomingHttpHeaders): void;
}): Promise<StandInApp> {
  const requests: StandInRequest[] = [];
  const sockets: WebSocket[] = [];
  let origin = "";
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      const request: StandInRequest = {
        method: req.method ?? "GET",
        url: `${origin}${path}`,
        path: path.split("?")[0] ?? path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      void Promise.resolve(handlers.http(request)).then((answer) => {
        res.writeHead(answer.status, { "content-type": answer.contentType ?? "text/plain" });
        res.end(answer.body ?? "");
      });
    });
  });
  const wss = new WebSocketServer({ server });
  wss.on("connection", (socket, req) => {
    sockets.push(socket);
    handlers.socket(socket, req.url ?? "/", req.headers);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    wsOrigin: `ws://127.0.0.1:${address.port}`,
    requests,
    sockets,
    close: async () => {
      for (const socket of wss.clients) socket.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls a condition until it holds (every 10 ms), failing with `what` after `timeoutMs`. */
export async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Reads a JSON response body (unknown until a test looks inside with `pick`). */
export async function readJson(response: Response): Promise<unknown> {
  const value: unknown = await response.json();
  return value;
}

/** The value at a path inside parsed JSON (object keys and array indexes), or undefined. */
export function pick(value: unknown, ...path: Array<string | number>): unknown {
  let current: unknown = value;
  for (const key of path) {
    if (typeof key === "number") current = Array.isArray(current) ? current[key] : undefined;
    else
      current =
        typeof current === "object" && current !== null && !Array.isArray(current)
          ? Reflect.get(current, key)
          : undefined;
  }
  return current;
}

/** A string at a path inside parsed JSON; throws when it is something else. */
export function pickString(value: unknown, ...path: Array<string | number>): string {
  const found = pick(value, ...path);
  if (typeof found !== "string")
    throw new Error(`Expected a string at ${path.join(".")}, got ${JSON.stringify(found)}`);
  return found;
}
