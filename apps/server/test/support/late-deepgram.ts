import { createServer } from "node:http";
import type { NetworkDeps } from "@parley/engine";
import WebSocket, { WebSocketServer } from "ws";
import { listenOnLoopback } from "./loopback.ts";

/**
 * Deepgram's live listen endpoint (wss://api.deepgram.com/v1/listen) on 127.0.0.1 with a recogniser
 * that is slow to finish: it answers each `{"type":"Finalize"}` with the final `Results`
 * (`is_final`, `from_finalize`) only after `finalDelayMs`. Longer than the 2 s the call waits for
 * final words, that makes every turn end on the `timeout` end-of-turn rule.
 */

export interface LateDeepgram {
  /** ws://127.0.0.1:port */
  origin: string;
  finalizes: number;
  /** The app's network with Deepgram's host routed here (everything else untouched). */
  route(base: NetworkDeps): NetworkDeps;
  close(): Promise<void>;
}

const finalResults = (transcript: string) => ({
  type: "Results",
  channel_index: [0, 1],
  duration: 1,
  start: 0,
  is_final: true,
  speech_final: false,
  from_finalize: true,
  channel: { alternatives: [{ transcript, confidence: 0.98, words: [] }] },
  metadata: { request_id: "late-deepgram", model_info: { name: "late", version: "1", arch: "late" } },
});

export async function startLateDeepgram(options: {
  apiKey: string;
  transcript: string;
  finalDelayMs: number;
}): Promise<LateDeepgram> {
  const http = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  const timers = new Set<NodeJS.Timeout>();
  http.on("upgrade", (req, socket, head) => {
    if (req.headers.authorization !== `Token ${options.apiKey}`) {
      socket.end("HTTP/1.1 401 Unauthorized\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws));
  });
  const loopback = await listenOnLoopback(http);
  const origin = loopback.origin.replace(/^http/, "ws");
  const late: LateDeepgram = {
    origin,
    finalizes: 0,
    route(base) {
      return {
        ...base,
        openWebSocket: (url, socketOptions) =>
          new WebSocket(url.replace(/^wss:\/\/api\.deepgram\.com/, origin), socketOptions.protocols ?? [], {
            headers: socketOptions.headers ?? {},
          }) as unknown as ReturnType<NonNullable<NetworkDeps["openWebSocket"]>>,
      };
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const client of wss.clients) client.terminate();
      wss.close();
      await loopback.close();
    },
  };
  wss.on("connection", (ws) => {
    ws.on("message", (data, isBinary) => {
      if (isBinary) return;
      let message: { type?: string };
      try {
        message = JSON.parse(String(data));
      } catch {
        return;
      }
      if (message.type === "Finalize") {
        late.finalizes += 1;
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(finalResults(options.transcript)));
        }, options.finalDelayMs);
        timers.add(timer);
      } else if (message.type === "CloseStream") {
        ws.close(1000);
      }
    });
  });
  return late;
}
