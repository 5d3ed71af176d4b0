import { type FakeTtsOptions, type FakeTtsServer, startFakeTts } from "./fake-tts-http.ts";
import { type RecordedRequest, requestHeader } from "./http-server.ts";

/** The JSON body of a request (empty object when it is not JSON). */
export function jsonBody(request: RecordedRequest): Record<string, unknown> {
  try {
    return JSON.parse(request.body.toString("utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
}

const scheme = (request: RecordedRequest, name: string, prefix: string) => {
  const value = requestHeader(request, name);
  return value?.startsWith(prefix) ? value.slice(prefix.length) : undefined;
};

/** OpenAI `POST /v1/audio/speech`: bearer key; `response_format: "pcm"` is always 24 kHz. */
export const startFakeOpenAiSpeech = (options: FakeTtsOptions): Promise<FakeTtsServer> =>
  startFakeTts(
    { path: /^\/v1\/audio\/speech$/, keyOf: (r) => scheme(r, "authorization", "Bearer "), sampleRateOf: () => 24_000 },
    options,
  );

/** ElevenLabs `POST /v1/text-to-speech/{voice}/stream?output_format=pcm_<rate>`: `xi-api-key`. */
export const startFakeElevenLabs = (options: FakeTtsOptions): Promise<FakeTtsServer> =>
  startFakeTts(
    {
      path: /^\/v1\/text-to-speech\/[^/]+\/stream$/,
      keyOf: (r) => requestHeader(r, "xi-api-key"),
      sampleRateOf: (r) => Number(/^pcm_(\d+)$/.exec(r.url.searchParams.get("output_format") ?? "")?.[1] ?? 0),
    },
    options,
  );

/** Cartesia `POST /tts/bytes`: bearer key, `Cartesia-Version`, raw pcm_s16le at `output_format.sample_rate`. */
export const startFakeCartesia = (options: FakeTtsOptions): Promise<FakeTtsServer> =>
  startFakeTts(
    {
      path: /^\/tts\/bytes$/,
      keyOf: (r) => (requestHeader(r, "cartesia-version") ? scheme(r, "authorization", "Bearer ") : undefined),
      sampleRateOf: (r) => Number((jsonBody(r).output_format as { sample_rate?: number } | undefined)?.sample_rate),
    },
    options,
  );

/** Deepgram `POST /v1/speak?model=…&encoding=linear16&sample_rate=…`: `Token` key. */
export const startFakeDeepgramSpeak = (options: FakeTtsOptions & { wavHeader?: boolean }): Promise<FakeTtsServer> =>
  startFakeTts(
    {
      path: /^\/v1\/speak$/,
      keyOf: (r) => scheme(r, "authorization", "Token "),
      sampleRateOf: (r) => Number(r.url.searchParams.get("sample_rate")),
      wavHeader: options.wavHeader,
    },
    options,
  );

/** PlayHT `POST /api/v2/tts/stream`: `AUTHORIZATION` key plus `X-USER-ID`, raw output at `sample_rate`. */
export const startFakePlayHt = (options: FakeTtsOptions & { userId: string }): Promise<FakeTtsServer> =>
  startFakeTts(
    {
      path: /^\/api\/v2\/tts\/stream$/,
      keyOf: (r) => (requestHeader(r, "x-user-id") === options.userId ? requestHeader(r, "authorization") : undefined),
      sampleRateOf: (r) => Number(jsonBody(r).sample_rate),
    },
    options,
  );

/** Rime `POST /v1/rime-tts` with `Accept: audio/pcm`: bearer key, PCM at `samplingRate`. */
export const startFakeRime = (options: FakeTtsOptions): Promise<FakeTtsServer> =>
  startFakeTts(
    {
      path: /^\/v1\/rime-tts$/,
      keyOf: (r) => scheme(r, "authorization", "Bearer "),
      sampleRateOf: (r) => Number(jsonBody(r).samplingRate),
    },
    options,
  );

/** Neuphonic `POST /sse/speak/{lang}`: `X-API-KEY`, server-sent events with base64 pcm_linear. */
export const startFakeNeuphonic = (options: FakeTtsOptions): Promise<FakeTtsServer> =>
  startFakeTts(
    {
      path: /^\/sse\/speak\/[a-z]+$/,
      keyOf: (r) => requestHeader(r, "x-api-key"),
      sampleRateOf: (r) => Number(jsonBody(r).sampling_rate),
      sse: true,
    },
    options,
  );
