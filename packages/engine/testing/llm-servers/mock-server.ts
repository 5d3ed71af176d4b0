import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { listenLocally } from "../local-http-server.ts";

/** One request the mock vendor received, kept for assertions. */
export interface RecordedRequest {
  method: string;
  /** Path and query, as the vendor would see them. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  json<T = Record<string, unknown>>(): T;
}

export type MockHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface MockServer {
  /** `http://127.0.0.1:<port>`: pass as an adapter's `baseUrl`. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A vendor stand-in on 127.0.0.1:0. Routes are keyed `"METHOD /path"`; a route may also be a
 * function of the request. Unmatched requests get a 404 with the vendor-style error body.
 */
export async function startMockServer(routes: Record<string, MockHandler>): Promise<MockServer> {
  const requests: RecordedRequest[] = [];
  const server = await listenLocally((incoming, body, response) => {
    const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
    const request: RecordedRequest = {
      method: incoming.method ?? "GET",
      url: `${url.pathname}${url.search}`,
      path: url.pathname,
      query: url.searchParams,
      headers: incoming.headers,
      body,
      json: <T>() => JSON.parse(body.toString("utf8")) as T,
    };
    requests.push(request);
    const handler = routes[`${request.method} ${request.path}`];
    if (!handler) {
      sendJson(response, 404, { error: { message: `No route for ${request.method} ${request.path}` } });
      return;
    }
    Promise.resolve(handler(request, response)).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
      else response.destroy();
    });
  });
  return { url: server.origin, requests, close: server.close };
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

export interface SseScriptOptions {
  /** Pause before each event, to look like a real token stream. */
  delayMs?: number;
  /** Drop the connection after this many events instead of finishing. */
  dropAfter?: number;
}

/** One scripted event: a bare data payload (object → JSON) or a named event. */
export type ScriptedEvent = string | Record<string, unknown> | { event: string; data: unknown };

/** Streams `events` as text/event-stream, optionally dropping the connection part-way. */
export async function sendSse(response: ServerResponse, events: ScriptedEvent[], options: SseScriptOptions = {}) {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const [index, event] of events.entries()) {
    if (options.dropAfter !== undefined && index >= options.dropAfter) {
      response.destroy();
      return;
    }
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (response.destroyed) return;
    response.write(formatEvent(event));
  }
  response.end();
}

function formatEvent(event: ScriptedEvent): string {
  if (typeof event === "string") return `data: ${event}\n\n`;
  if (typeof event.event === "string" && "data" in event) {
    return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
  }
  return `data: ${JSON.stringify(event)}\n\n`;
}
