import { httpTts } from "../shared/http-tts.ts";
import { vendorUrl } from "../shared/vendor-url.ts";

/** `response_format: "pcm"` is 24 kHz 16-bit little-endian mono without a header. */
const OPENAI_PCM_RATE = 24_000;

/** OpenAI speech through `POST /v1/audio/speech`, streamed as raw PCM. */
export const OpenAiTts = httpTts("openai", "OpenAI", (text, { config, apiKey, baseUrl }) => ({
  url: vendorUrl("https://api.openai.com", "/v1/audio/speech", baseUrl).toString(),
  headers: { Authorization: `Bearer ${apiKey}` },
  json: { model: config.model, voice: config.voice, input: text, response_format: "pcm", speed: config.speed },
  sampleRate: OPENAI_PCM_RATE,
}));
