import type { ServerResponse } from "node:http";
import { pcmBytes } from "../../src/providers/shared/pcm-wire.ts";
import { type FakeHttpServer, type RecordedRequest, sendJsonResponse, startHttpServer } from "./http-server.ts";
import { tone } from "./stt-harness.ts";

export interface FakeTtsOptions {
  apiKey: string;
  /** Answer every request with this error status instead of audio. */
  status?: number;
}

/** How one vendor's synthesis endpoint is reached and how it frames its audio. */
export interface FakeTtsVendor {
  path: RegExp;
  keyOf(request: RecordedRequest): string | undefined;
  /** The sample rate the request asked for (the fake answers in it). */
  sampleRateOf(request: RecordedRequest): number;
  /** Server-sent events with base64 audio instead of a raw byte stream. */
  sse?: boolean;
  /** Prefix the audio with a WAV header (as some vendors do even for "raw" requests). */
  wavHeader?: boolean;
}

export interface FakeTtsServer extends FakeHttpServer {
  /** The samples each answer carries: 300 ms of a 440 Hz tone at the requested rate. */
  expectedPcm(sampleRate: number): Int16Array;
  /** True while an answer has sent its first piece and waits for `release()`. */
  readonly holding: boolean;
  /** Lets the held answers send the rest of their audio. */
  release(): void;
}

/** Piece sizes chosen so samples straddle network chunks (odd sizes, a lone byte). */
const PIECES = [1001, 1, 2, 777, 3];

/**
 * A fake synthesis endpoint. After auth, it sends the first 1001 bytes of audio, then holds the rest
 * until the test calls `release()` (proving the adapter yields audio before the answer is complete),
 * then sends the rest in odd-sized pieces.
 */
export async function startFakeTts(vendor: FakeTtsVendor, options: FakeTtsOptions): Promise<FakeTtsServer> {
  let holding = false;
  let releaseHeld: () => void = () => {};
  let gate = new Promise<void>((resolve) => {
    releaseHeld = resolve;
  });
  const server = await startHttpServer(async (request, response) => {
    if (!vendor.path.test(request.url.pathname) || request.method !== "POST") {
      sendJsonResponse(response, 404, { detail: "not found" });
      return;
    }
    if (vendor.keyOf(request) !== options.apiKey) {
      sendJsonResponse(response, 401, { detail: { status: "invalid_api_key", message: "Invalid API key" } });
      return;
    }
    if (options.status) {
      sendJsonResponse(response, options.status, { error: { message: `failing with ${options.status}` } });
      return;
    }
    const rate = vendor.sampleRateOf(request);
    const bytes = audioBytes(rate, vendor.wavHeader === true);
    const pieces = cut(bytes);
    response.writeHead(200, { "content-type": vendor.sse ? "text/event-stream" : "application/octet-stream" });
    send(response, pieces[0] ?? new Uint8Array(0), vendor.sse === true);
    holding = true;
    await gate;
    for (const piece of pieces.slice(1)) {
      send(response, piece, vendor.sse === true);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    response.end();
  });
  return {
    ...server,
    expectedPcm: (rate) => tone(300, rate),
    get holding() {
      return holding;
    },
    release: () => {
      holding = false;
      releaseHeld();
      gate = Promise.resolve();
    },
  };
}

function audioBytes(rate: number, wavHeader: boolean): Uint8Array {
  const pcm = pcmBytes(tone(300, rate));
  if (!wavHeader) return pcm;
  const header = new Uint8Array(44);
  const view = new DataView(header.buffer);
  header.set(Buffer.from("RIFF"), 0);
  view.setUint32(4, 0xffffffff, true);
  header.set(Buffer.from("WAVEfmt "), 8);
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  header.set(Buffer.from("data"), 36);
  view.setUint32(40, 0xffffffff, true);
  return Buffer.concat([header, pcm]);
}

function cut(bytes: Uint8Array): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let offset = 0;
  for (let i = 0; offset < bytes.length; i++) {
    const size = PIECES[i % PIECES.length] ?? 1;
    pieces.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return pieces;
}

function send(response: ServerResponse, piece: Uint8Array, sse: boolean): void {
  if (!sse) {
    response.write(piece);
    return;
  }
  const event = { status_code: 200, data: { audio: Buffer.from(piece).toString("base64"), text: "" } };
  response.write(`event: message\ndata: ${JSON.stringify(event)}\n\n`);
}
