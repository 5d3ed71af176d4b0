import { type FakeHttpServer, type RecordedRequest, sendJsonResponse, startHttpServer } from "./http-server.ts";

export interface FakeTranscriptionOptions {
  apiKey: string;
  /** What every utterance "says". */
  transcript?: string;
  /** Statuses answered to the first requests, in order, before answering normally (401, 429, 503, …). */
  failWith?: number[];
}

interface TranscriptionVendor {
  path: string;
  keyOf(request: RecordedRequest): string | undefined;
  answer(transcript: string): unknown;
}

function startFakeTranscription(vendor: TranscriptionVendor, options: FakeTranscriptionOptions) {
  const failures = [...(options.failWith ?? [])];
  return startHttpServer((request, response) => {
    if (request.method !== "POST" || request.url.pathname !== vendor.path) {
      sendJsonResponse(response, 404, { error: { message: "not found" } });
      return;
    }
    if (vendor.keyOf(request) !== options.apiKey) {
      sendJsonResponse(response, 401, { error: { message: "Invalid API Key" } });
      return;
    }
    const status = failures.shift();
    if (status !== undefined) {
      sendJsonResponse(response, status, { error: { message: `failing with ${status}` } });
      return;
    }
    sendJsonResponse(response, 200, vendor.answer(options.transcript ?? "hello world"));
  });
}

const bearer = (request: RecordedRequest, scheme: string) => {
  const value = request.headers.authorization;
  return typeof value === "string" && value.startsWith(`${scheme} `) ? value.slice(scheme.length + 1) : undefined;
};

/** A fake of Groq's OpenAI-compatible `POST /openai/v1/audio/transcriptions` (multipart in, `{text}` out). */
export function startFakeGroqTranscriptions(options: FakeTranscriptionOptions): Promise<FakeHttpServer> {
  return startFakeTranscription(
    {
      path: "/openai/v1/audio/transcriptions",
      keyOf: (request) => bearer(request, "Bearer"),
      answer: (text) => ({ text, x_groq: { id: "req_fake" } }),
    },
    options,
  );
}

/** A fake of Hamsa's `POST /v1/realtime/stt` (JSON with base64 WAV in, `{text}` out, `Token` auth). */
export function startFakeHamsaStt(options: FakeTranscriptionOptions): Promise<FakeHttpServer> {
  return startFakeTranscription(
    { path: "/v1/realtime/stt", keyOf: (request) => bearer(request, "Token"), answer: (text) => ({ text }) },
    options,
  );
}

/** Reads the format of a WAV file: what a vendor checks before transcribing. */
export function wavFormat(bytes: Uint8Array): { sampleRate: number; channels: number; bits: number; samples: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  if (tag(0) !== "RIFF" || tag(8) !== "WAVE") throw new Error("not a WAV file");
  return {
    channels: view.getUint16(22, true),
    sampleRate: view.getUint32(24, true),
    bits: view.getUint16(34, true),
    samples: view.getUint32(40, true) / 2,
  };
}
