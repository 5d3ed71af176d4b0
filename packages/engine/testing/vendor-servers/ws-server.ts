import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { type RawData, type WebSocket, WebSocketServer } from "ws";

/** The handshake request of one accepted or refused connection. */
export interface Upgrade {
  url: URL;
  headers: IncomingHttpHeaders;
}

/** One accepted connection: its handshake, and every frame the client sent, in order. */
export interface Connection {
  upgrade: Upgrade;
  socket: WebSocket;
  /** Text frames, parsed as JSON when they are JSON. */
  texts: unknown[];
  /** Total bytes of binary frames. */
  audioBytes: number;
  /** Size in bytes of each binary frame. */
  frameSizes: number[];
}

export interface WsServerOptions {
  /** Return an HTTP status to refuse the handshake (e.g. 401), or null to accept it. */
  refuse?(upgrade: Upgrade): number | null;
  /** Called for each accepted connection; `onFrame` handlers go on `connection.socket`. */
  onConnection(connection: Connection): void;
  /** Called for every frame, after it is recorded. */
  onFrame?(connection: Connection, frame: { text: string | null; bytes: Buffer | null }): void;
}

export interface FakeWsServer {
  /** ws://127.0.0.1:<port>, to pass as the adapter's baseUrl. */
  baseUrl: string;
  upgrades: Upgrade[];
  connections: Connection[];
  close(): Promise<void>;
}

/** A WebSocket server on 127.0.0.1:0 that records handshakes and frames, for vendor fakes. */
export async function startWsServer(options: WsServerOptions): Promise<FakeWsServer> {
  const upgrades: Upgrade[] = [];
  const connections: Connection[] = [];
  const http = createServer((_req, res) => res.writeHead(426).end());
  const wss = new WebSocketServer({ noServer: true });
  http.on("upgrade", (req, socket, head) => {
    const upgrade: Upgrade = { url: new URL(req.url ?? "/", "ws://127.0.0.1"), headers: req.headers };
    upgrades.push(upgrade);
    const status = options.refuse?.(upgrade) ?? null;
    if (status !== null) {
      const body = JSON.stringify({ err_msg: `refused with ${status}` });
      socket.end(
        `HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: Connection = { upgrade, socket: ws, texts: [], audioBytes: 0, frameSizes: [] };
      connections.push(connection);
      ws.on("message", (data: RawData, isBinary: boolean) => {
        const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
        if (isBinary) {
          connection.audioBytes += bytes.length;
          connection.frameSizes.push(bytes.length);
          options.onFrame?.(connection, { text: null, bytes });
        } else {
          const text = bytes.toString("utf8");
          connection.texts.push(parseMaybeJson(text));
          options.onFrame?.(connection, { text, bytes: null });
        }
      });
      options.onConnection(connection);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    baseUrl: `ws://127.0.0.1:${port}`,
    upgrades,
    connections,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function parseMaybeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Sends a JSON message when the socket is still open. */
export function sendJson(socket: WebSocket, message: unknown): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

/** The value of a header that must appear once. */
export function header(upgrade: Upgrade, name: string): string | undefined {
  const value = upgrade.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
