import WebSocket from "ws";
import type { NetworkDeps, WebSocketLike } from "../src/providers/types.ts";

/**
 * Network access for use outside the server (scripts, benchmarks, tests): the global fetch and the
 * `ws` client. The server passes its own SSRF-safe variants instead.
 */
export function defaultNetwork(): NetworkDeps {
  return {
    fetch: (input, init) => globalThis.fetch(input, init),
    openWebSocket: (url, options) => wrapWs(new WebSocket(url, options.protocols ?? [], { headers: options.headers })),
  };
}

/**
 * Adapts a `ws` client to WebSocketLike. Text frames arrive as strings and binary frames as Buffers;
 * a refused handshake surfaces as an error whose message carries the HTTP status
 * ("Unexpected server response: 401"), which the adapters read to classify the failure.
 */
export function wrapWs(socket: WebSocket): WebSocketLike {
  const like: WebSocketLike = {
    get readyState() {
      return socket.readyState;
    },
    send: (data) => socket.send(data),
    close: (code, reason) => {
      // A socket still connecting cannot send a close frame; terminate it instead.
      if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      else socket.close(code, reason);
    },
    addEventListener: ((type: string, listener: (event: unknown) => void) => {
      if (type === "open") socket.on("open", () => listener(undefined));
      else if (type === "message")
        socket.on("message", (data: WebSocket.RawData, isBinary: boolean) =>
          listener({ data: isBinary ? data : data.toString() }),
        );
      else if (type === "close")
        socket.on("close", (code: number, reason: Buffer) => listener({ code, reason: reason.toString() }));
      else if (type === "error") socket.on("error", (error: Error) => listener(error));
    }) as WebSocketLike["addEventListener"],
  };
  return like;
}
