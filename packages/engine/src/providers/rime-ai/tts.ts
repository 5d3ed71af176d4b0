import { httpTts } from "../shared/http-tts.ts";
import { vendorUrl } from "../shared/vendor-url.ts";

/** Rime speech through `POST https://users.rime.ai/v1/rime-tts` with `Accept: audio/pcm`. */
export const RimeTts = httpTts("rime-ai", "Rime", (text, { config, apiKey, baseUrl }) => ({
  url: vendorUrl("https://users.rime.ai", "/v1/rime-tts", baseUrl).toString(),
  headers: { Authorization: `Bearer ${apiKey}`, accept: "audio/pcm" },
  json: {
    speaker: config.voice,
    text,
    modelId: config.model,
    samplingRate: config.sampleRate,
    // Rime's speedAlpha is a duration factor: above 1 is slower, so it is the inverse of speed.
    speedAlpha: Number((1 / config.speed).toFixed(3)),
    ...(config.language ? { lang: config.language } : {}),
  },
  sampleRate: config.sampleRate,
}));
