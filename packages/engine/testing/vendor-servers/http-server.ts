import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { listenLocally } from "../local-http-server.ts";

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface FakeHttpServer {
  /** http://127.0.0.1:<port>, to pass as the adapter's baseUrl. */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type HttpHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

/** An HTTP server on 127.0.0.1:0 that records every request (with its whole body) before answering. */
export async function startHttpServer(handler: HttpHandler): Promise<FakeHttpServer> {
  const requests: RecordedRequest[] = [];
  const server = await listenLocally((req, body, res) => {
    const recorded: RecordedRequest = {
      method: req.method ?? "GET",
      url: new URL(req.url ?? "/", "http://127.0.0.1"),
      headers: req.headers,
      body,
    };
    requests.push(recorded);
    Promise.resolve(handler(recorded, res)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  return { baseUrl: server.origin, requests, close: server.close };
}

/** A header that must appear once. */
export function requestHeader(request: RecordedRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Answers with a JSON body. */
export function sendJsonResponse(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

/** Parses a multipart/form-data body the way a vendor would. */
export async function formDataOf(request: RecordedRequest): Promise<FormData> {
  const type = requestHeader(request, "content-type") ?? "";
  return new Response(new Uint8Array(request.body), { headers: { "content-type": type } }).formData();
}
