import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { NetworkDeps } from "@parley/engine";
import { listenOnLoopback } from "./loopback.ts";

/**
 * Deepgram Aura's REST speech endpoint (`POST https://api.deepgram.com/v1/speak?model=…&encoding=
 * linear16&sample_rate=…&container=none`, `Authorization: Token <key>`, body `{"text": …}`) on
 * 127.0.0.1, written from Deepgram's text-to-speech docs, that can be told to fail. A working answer
 * streams headerless 16-bit PCM at the asked rate: a tone (loud enough to be heard on the wire) as
 * long as the text would take to say, in chunks, faster than real time as the vendor does.
 *
 * Each key is a scenario (what a test saves as a workspace's Deepgram key), and a scenario fails from
 * its `fromRequest`-th sentence on, so a call's greeting can be heard before the voice breaks.
 */

/** How the voice of one key fails. */
export type TtsFault =
  | { type: "none" }
  /** Answers this status with Deepgram's JSON error body. */
  | { type: "status"; status: number }
  /** Answers 200 and its headers, then never sends a byte of audio. */
  | { type: "hang" }
  /** Streams `afterMs` of audio, then resets the connection mid-sentence. */
  | { type: "cut"; afterMs: number };

export interface TtsScenario {
  fault: TtsFault;
  /** The first request (1-based, per key) that fails; the ones before it work. Default 1. */
  fromRequest?: number;
}

export interface TtsKeyStats {
  /** The text of every sentence asked for, in order. */
  texts: string[];
  /** Requests answered with audio whole / failed as the fault says. */
  served: number;
  failed: number;
}

export interface ChaosTts {
  origin: string;
  /** A Deepgram API key (`key`, else a new one) whose voice behaves as `scenario` says. */
  key(scenario: TtsScenario, key?: string): string;
  stats(key: string): TtsKeyStats;
  /** The app's network with Deepgram's REST host routed here (everything else untouched). */
  route(base: NetworkDeps): NetworkDeps;
  close(): Promise<void>;
}

/** How long the tone lasts per character of text (about 150 words a minute). */
const MS_PER_CHARACTER = 60;
const MIN_SENTENCE_MS = 300;
/** Each chunk written holds this much audio. */
const CHUNK_MS = 40;
const AMPLITUDE = 6000;

const ERRORS: Record<number, { err_code: string; err_msg: string }> = {
  400: { err_code: "INVALID_QUERY_PARAMETER", err_msg: "Failed to process the request." },
  401: { err_code: "INVALID_AUTH", err_msg: "Invalid credentials." },
  402: { err_code: "ASR_PAYMENT_REQUIRED", err_msg: "Project does not have enough credits." },
  429: { err_code: "TOO_MANY_REQUESTS", err_msg: "Too many requests. Please try again later." },
  500: { err_code: "INTERNAL_SERVER_ERROR", err_msg: "An internal server error occurred." },
  503: { err_code: "SERVICE_UNAVAILABLE", err_msg: "The service is temporarily unavailable." },
};

/** `ms` of a 330 Hz tone at `sampleRate`, as little-endian 16-bit bytes, continuing from `offset` samples. */
function tone(sampleRate: number, ms: number, offset: number): Buffer {
  const samples = Math.round((sampleRate * ms) / 1000);
  const bytes = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) {
    bytes.writeInt16LE(Math.round(AMPLITUDE * Math.sin((2 * Math.PI * 330 * (offset + i)) / sampleRate)), i * 2);
  }
  return bytes;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startChaosTts(): Promise<ChaosTts> {
  const scenarios = new Map<string, { scenario: TtsScenario; stats: TtsKeyStats }>();
  /** Responses held open (hanging): ended when the double closes. */
  const held = new Set<ServerResponse>();

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };

  /** Streams the sentence's audio; with `cutAfterMs`, resets the connection once that much is out. */
  async function speak(res: ServerResponse, text: string, sampleRate: number, cutAfterMs?: number) {
    res.writeHead(200, { "content-type": "audio/l16", "dg-request-id": randomUUID() });
    const total = Math.max(MIN_SENTENCE_MS, text.length * MS_PER_CHARACTER);
    const samplesPerChunk = Math.round((sampleRate * CHUNK_MS) / 1000);
    let sent = 0;
    for (let ms = 0; ms < total; ms += CHUNK_MS) {
      if (res.destroyed) return;
      if (cutAfterMs !== undefined && ms >= cutAfterMs) {
        // Let what was written reach the client before the reset.
        await pause(50);
        res.socket?.resetAndDestroy();
        return;
      }
      res.write(tone(sampleRate, CHUNK_MS, sent));
      sent += samplesPerChunk;
      // Faster than real time, in pieces, as a streaming vendor answers.
      await pause(5);
    }
    res.end();
  }

  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const body = await readBody(req);
    if (req.method !== "POST" || url.pathname !== "/v1/speak") return json(res, 404, { err_msg: "Not found" });
    const entry = scenarios.get(req.headers.authorization?.replace(/^Token /, "") ?? "");
    if (!entry) return json(res, 401, { ...ERRORS[401], request_id: randomUUID() });
    let text: string;
    try {
      text = String((JSON.parse(body) as { text?: unknown }).text ?? "");
    } catch {
      return json(res, 400, { ...ERRORS[400], request_id: randomUUID() });
    }
    const sampleRate = Number(url.searchParams.get("sample_rate")) || 24_000;
    if (url.searchParams.get("encoding") !== "linear16" || url.searchParams.get("container") !== "none") {
      return json(res, 400, { ...ERRORS[400], request_id: randomUUID() });
    }
    const { scenario, stats } = entry;
    stats.texts.push(text);
    const failing = stats.texts.length >= (scenario.fromRequest ?? 1) ? scenario.fault : { type: "none" as const };
    if (failing.type === "none") {
      await speak(res, text, sampleRate);
      stats.served += 1;
      return;
    }
    stats.failed += 1;
    if (failing.type === "status") {
      const error = ERRORS[failing.status] ?? { err_code: "ERROR", err_msg: `Status ${failing.status}.` };
      return json(res, failing.status, { ...error, request_id: randomUUID() });
    }
    if (failing.type === "hang") {
      res.writeHead(200, { "content-type": "audio/l16", "dg-request-id": randomUUID() });
      res.flushHeaders();
      held.add(res);
      res.on("close", () => held.delete(res));
      return;
    }
    await speak(res, text, sampleRate, failing.afterMs);
  });

  const loopback = await listenOnLoopback(http);
  return {
    origin: loopback.origin,
    key(scenario, key = `dg-voice-${randomBytes(12).toString("hex")}`) {
      scenarios.set(key, { scenario, stats: { texts: [], served: 0, failed: 0 } });
      return key;
    },
    stats(key) {
      const entry = scenarios.get(key);
      if (!entry) throw new Error(`no scenario for key ${key}`);
      return entry.stats;
    },
    route(base) {
      return {
        ...base,
        fetch: ((input: string | URL | Request, init?: RequestInit) => {
          const url = String(input instanceof Request ? input.url : input);
          if (!url.startsWith("https://api.deepgram.com/v1/speak")) return base.fetch(input, init);
          return base.fetch(url.replace(/^https:\/\/api\.deepgram\.com/, loopback.origin), init);
        }) as typeof fetch,
      };
    },
    async close() {
      for (const res of held) res.destroy();
      await loopback.close();
    },
  };
}
