import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackServer {
  /** http://127.0.0.1:port */
  origin: string;
  /** Stops it, ending open keep-alive connections instead of waiting for them. */
  close(): Promise<void>;
}

/** Starts one of a test's own HTTP servers on a free port of 127.0.0.1. */
export async function listenOnLoopback(server: Server): Promise<LoopbackServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request one of a test's servers received, its body read whole. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A server on 127.0.0.1 standing for someone the product calls (a webhook receiver, a function's
 * endpoint): it keeps every request in `received`, oldest first, and answers with `respond`.
 */
export async function startReceiver(
  respond: (request: ReceivedRequest, res: ServerResponse) => void,
): Promise<LoopbackServer & { received: ReceivedRequest[] }> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      const request = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      received.push(request);
      respond(request, res);
    });
  });
  return { ...(await listenOnLoopback(server)), received };
}
