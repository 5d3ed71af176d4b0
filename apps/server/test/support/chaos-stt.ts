import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { NetworkDeps } from "@parley/engine";
import WebSocket, { WebSocketServer } from "ws";
import { listenOnLoopback } from "./loopback.ts";

/**
 * Deepgram's live transcription endpoint (`wss://api.deepgram.com/v1/listen`) on 127.0.0.1, written
 * from Deepgram's streaming docs, that can be told to fail. It authenticates `Authorization: Token
 * <key>` on the upgrade, takes binary linear16 audio at the URL's `sample_rate`, sends interim
 * `Results` while speech flows, a final `Results` (`is_final`, `from_finalize`) on
 * `{"type":"Finalize"}`, and `Metadata` then a 1000 close on `{"type":"CloseStream"}`.
 *
 * It does not recognise speech: every utterance with speech in it is heard as the key's `transcript`.
 * Each key is a scenario (what a test saves as a workspace's Deepgram key), so calls running side by
 * side on one app each meet their own fault.
 */

/** How the recogniser of one key fails. */
export type SttFault =
  /** Works: interim and final results for every utterance. */
  | { type: "none" }
  /** Nothing listens: every connection is refused at TCP (ECONNREFUSED). */
  | { type: "refuse" }
  /** The upgrade is answered 401 with Deepgram's error body (a revoked key). */
  | { type: "unauthorized" }
  /**
   * The socket is torn down (no close frame) once a connection has received `afterSpeechMs` of
   * audio carrying speech (however the client cuts it into messages), so the drop lands mid-utterance. `afterwards: "down"`: the vendor stays
   * down (later connections refused); `"up"`: later connections work.
   */
  | { type: "drop"; afterSpeechMs: number; afterwards: "down" | "up" }
  /** Accepts the socket and the audio and never answers, not even a Finalize. */
  | { type: "silent" };

/** What one key's recogniser saw. */
export interface SttKeyStats {
  connections: number;
  audioMessages: number;
  finalizes: number;
  drops: number;
  /** Connections refused at TCP (routed to the dead port). */
  refused: number;
}

export interface ChaosStt {
  /** ws://127.0.0.1:port */
  origin: string;
  /**
   * A Deepgram API key whose sessions behave as `fault` says and hear `transcript`: `options.key`
   * (the key a voice scenario of the same workspace uses too), else a new one.
   */
  key(fault: SttFault, options?: { key?: string; transcript?: string }): string;
  stats(key: string): SttKeyStats;
  /** The app's network with Deepgram's live host routed here (refused keys to a closed port). */
  route(base: NetworkDeps): NetworkDeps;
  close(): Promise<void>;
}

interface Scenario {
  fault: SttFault;
  transcript: string;
  stats: SttKeyStats;
  down: boolean;
}

/** RMS (16-bit) from which a received audio message counts as speech. */
const SPEECH_RMS = 300;
/** Speech received before the first interim result of an utterance: 300 ms. */
const INTERIM_AFTER_MS = 300;

function rms(bytes: Buffer): number {
  const samples = Math.floor(bytes.length / 2);
  if (samples === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples; i += 1) sum += bytes.readInt16LE(i * 2) ** 2;
  return Math.sqrt(sum / samples);
}

const DEFAULT_TRANSCRIPT = "I would like to book a table for two";

/** A `Results` message as Deepgram sends it, timed in seconds of the stream. */
function results(transcript: string, start: number, duration: number, flags: Record<string, boolean>) {
  const words = transcript.split(/\s+/).filter(Boolean);
  const step = words.length > 0 ? duration / words.length : 0;
  return {
    type: "Results",
    channel_index: [0, 1],
    duration,
    start,
    ...flags,
    channel: {
      alternatives: [
        {
          transcript,
          confidence: 0.97,
          words: words.map((word, i) => ({
            word: word.toLowerCase(),
            start: start + i * step,
            end: start + (i + 1) * step,
            confidence: 0.97,
            punctuated_word: word,
          })),
        },
      ],
    },
    metadata: {
      request_id: randomUUID(),
      model_info: { name: "2-general-nova", version: "2024-01-01.0", arch: "nova-3" },
      model_uuid: randomUUID(),
    },
  };
}

/** A port nothing listens on: bound, then released. */
async function deadPort(): Promise<number> {
  const server = createServer();
  const { origin, close } = await listenOnLoopback(server);
  await close();
  return Number(new URL(origin).port);
}

export async function startChaosStt(): Promise<ChaosStt> {
  const scenarios = new Map<string, Scenario>();
  const http = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  const keyOf = (authorization: string | undefined) => authorization?.replace(/^Token /, "") ?? "";

  http.on("upgrade", (req: IncomingMessage, socket, head) => {
    const scenario = scenarios.get(keyOf(req.headers.authorization));
    if (!scenario || scenario.fault.type === "unauthorized") {
      const body = JSON.stringify({
        err_code: "INVALID_AUTH",
        err_msg: "Invalid credentials.",
        request_id: randomUUID(),
      });
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, req, scenario));
  });

  function serve(ws: WebSocket, req: IncomingMessage, scenario: Scenario): void {
    scenario.stats.connections += 1;
    const sampleRate = Number(new URL(req.url ?? "/", "ws://x").searchParams.get("sample_rate")) || 16_000;
    const vadEvents = new URL(req.url ?? "/", "ws://x").searchParams.get("vad_events") === "true";
    const seconds = (bytes: number) => bytes / 2 / sampleRate;
    let receivedBytes = 0;
    let speechBytes = 0;
    /** The utterance since the last Finalize: where its speech started and how much speech it holds. */
    let utterance = { startBytes: 0, speechBytes: 0, interimSent: false };
    const send = (message: unknown) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    };

    ws.on("message", (data, isBinary) => {
      const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (isBinary) {
        scenario.stats.audioMessages += 1;
        receivedBytes += bytes.length;
        if (rms(bytes) < SPEECH_RMS) return;
        speechBytes += bytes.length;
        if (utterance.speechBytes === 0) utterance.startBytes = receivedBytes - bytes.length;
        utterance.speechBytes += bytes.length;
        const { fault } = scenario;
        if (fault.type === "drop" && seconds(speechBytes) * 1000 >= fault.afterSpeechMs) {
          scenario.stats.drops += 1;
          if (fault.afterwards === "down") scenario.down = true;
          ws.terminate();
          return;
        }
        if (fault.type === "silent" || utterance.interimSent) return;
        if (seconds(utterance.speechBytes) * 1000 >= INTERIM_AFTER_MS) {
          utterance.interimSent = true;
          if (vadEvents) send({ type: "SpeechStarted", channel: [0], timestamp: seconds(utterance.startBytes) });
          const first = scenario.transcript.split(" ").slice(0, 2).join(" ");
          send(results(first, seconds(utterance.startBytes), seconds(utterance.speechBytes), { is_final: false }));
        }
        return;
      }
      let message: { type?: string };
      try {
        message = JSON.parse(bytes.toString("utf8")) as { type?: string };
      } catch {
        return;
      }
      if (message.type === "Finalize") {
        scenario.stats.finalizes += 1;
        if (scenario.fault.type === "silent") return;
        const heard = utterance.speechBytes > 0 ? scenario.transcript : "";
        const start = utterance.speechBytes > 0 ? seconds(utterance.startBytes) : seconds(receivedBytes);
        const flags = { is_final: true, speech_final: false, from_finalize: true };
        send(results(heard, start, Math.max(0, seconds(receivedBytes) - start), flags));
        utterance = { startBytes: receivedBytes, speechBytes: 0, interimSent: false };
      } else if (message.type === "CloseStream") {
        send({
          type: "Metadata",
          transaction_key: "deprecated",
          request_id: randomUUID(),
          created: new Date().toISOString(),
          duration: seconds(receivedBytes),
          channels: 1,
        });
        ws.close(1000);
      }
      // KeepAlive needs no answer.
    });
  }

  const loopback = await listenOnLoopback(http);
  const origin = loopback.origin.replace(/^http/, "ws");
  const dead = `ws://127.0.0.1:${await deadPort()}`;

  return {
    origin,
    key(fault, { key = `dg-chaos-${randomBytes(12).toString("hex")}`, transcript = DEFAULT_TRANSCRIPT } = {}) {
      const stats = { connections: 0, audioMessages: 0, finalizes: 0, drops: 0, refused: 0 };
      scenarios.set(key, { fault, transcript, stats, down: fault.type === "refuse" });
      return key;
    },
    stats(key) {
      const scenario = scenarios.get(key);
      if (!scenario) throw new Error(`no scenario for key ${key}`);
      return scenario.stats;
    },
    route(base) {
      const open = base.openWebSocket;
      if (!open) throw new Error("the app's network opens no WebSockets");
      return {
        ...base,
        openWebSocket: (url, options) => {
          if (!/^wss:\/\/api\.deepgram\.com\//.test(url)) return open(url, options);
          const scenario = scenarios.get(keyOf(options.headers?.Authorization ?? options.headers?.authorization));
          if (scenario?.down) scenario.stats.refused += 1;
          const to = scenario?.down ? dead : origin;
          return open(url.replace(/^wss:\/\/api\.deepgram\.com/, to), options);
        },
      };
    },
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      await loopback.close();
    },
  };
}
